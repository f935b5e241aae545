/**
 * `npm run compat:qwen`: the differential test against the real Qwen Code. Installs it into the
 * peer cache, runs every case of qwen-cases.ts through it and through Keel (the same
 * `.qwen/settings.json`), prints one line per case. `--only` and `--dump` as in table.ts.
 */
import { QWEN_CASES } from "./qwen-cases.js";
import { keelObservationForQwen } from "./qwen-view.js";
import { runKeelCase } from "./run-keel.js";
import { runQwenCase } from "./run-qwen.js";
import { runCompatTable } from "./table.js";

runCompatTable({
  peer: "qwen",
  title: "Qwen Code",
  cases: QWEN_CASES,
  runPeer: runQwenCase,
  runKeel: async (c) => keelObservationForQwen(await runKeelCase(c, "qwen")),
  // Both views are reduced to outcomes (qwen-view.ts): every item is compared.
  modelView: "plain",
  // The text a tool's result gave the model is each agent's own words (the model view compares
  // the outcome); the hook sees it in tool_response.llmContent.
  opaqueNested: { llmContent: "<tool text>" },
  // Qwen Code 0.24's own: Keel has no model registry entry hash or relaunch bookkeeping.
  deliberateEnv: {
    QWEN_CODE_MODEL_IDENTITY: "the model's entry in Qwen's registry, `<model>@<hash>`",
    QWEN_CODE_PRIVATE_RELAUNCH_ENV_PROVENANCE: "Qwen's internal relaunch bookkeeping",
  },
});
