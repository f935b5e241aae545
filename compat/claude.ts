/**
 * `npm run compat:claude`: the differential test against the real Claude Code. Installs it into
 * the peer cache, runs every case of cases.ts through it and through Keel, prints one line per
 * case (`same` / `deliberate (…)` / `differs: …`). `--only`, `--dump` and `--latest` (the
 * registry's current release, with the drift against the pinned one) as in table.ts.
 */
import { CASES } from "./cases.js";
import { CHANNEL_EQUIVALENT, DELIBERATE_FIELDS } from "./compare.js";
import { runClaudeCase } from "./run-claude.js";
import { runKeelCase } from "./run-keel.js";
import { runCompatTable } from "./table.js";

runCompatTable({
  peer: "claude",
  title: "Claude Code",
  cases: CASES,
  runPeer: runClaudeCase,
  runKeel: (c) => runKeelCase(c),
  concurrency: 2,
  // The channel is compared: hook context inside a tool result is not where Claude puts it.
  channels: true,
  footer: [
    `Compared as one channel: Keel's "${CHANNEL_EQUIVALENT.keel}" message and Claude's "${CHANNEL_EQUIVALENT.peer}" message where Claude sends one (deliberate: ${CHANNEL_EQUIVALENT.why}); where Claude sends hook output as a user message of its own (a Stop hook's feedback), Keel's is compared with that.`,
    ...(Object.keys(DELIBERATE_FIELDS).length === 0
      ? []
      : [
          "Never compared (Keel deliberately does not send them):",
          ...Object.entries(DELIBERATE_FIELDS).map(([field, why]) => `  payload ${field}: ${why}`),
        ]),
  ],
});
