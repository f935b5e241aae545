/**
 * `npm run compat:gemini`: the differential test against the real Gemini CLI. Installs it into
 * the peer cache, runs every case of gemini-cases.ts through it (against gemini-sim.ts) and
 * through Keel (the same `.gemini/settings.json`), prints one line per case. `--only` and
 * `--dump` as in table.ts.
 */
import { GEMINI_CASES } from "./gemini-cases.js";
import { keelObservationForQwen } from "./qwen-view.js";
import { runGeminiCase } from "./run-gemini.js";
import { runKeelCase } from "./run-keel.js";
import { runCompatTable } from "./table.js";

runCompatTable({
  peer: "gemini",
  title: "Gemini CLI",
  cases: GEMINI_CASES,
  runPeer: runGeminiCase,
  runKeel: async (c) => keelObservationForQwen(await runKeelCase(c, "gemini")),
  // Both views are reduced to outcomes (gemini-view.ts, qwen-view.ts): every item is compared.
  modelView: "plain",
  opaqueNested: { llmContent: "<tool text>" },
  deliberateEnv: {
    GEMINI_PLANS_DIR: "Keel has no plan-mode folder to point at; a made-up path would mislead",
  },
});
