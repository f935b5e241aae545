/**
 * `npm run compat:reasonix`: the differential test against the real Reasonix 1.x (Go).
 * Installs it into the peer cache, runs every case of reasonix-cases.ts through it and through
 * Keel (the same `.reasonix/settings.json`), prints one line per case. `--only` and `--dump` as
 * in table.ts.
 */
import { REASONIX_CASES } from "./reasonix-cases.js";
import { runKeelCase } from "./run-keel.js";
import { runReasonixCase } from "./run-reasonix.js";
import { runCompatTable } from "./table.js";

runCompatTable({
  peer: "reasonix",
  title: "Reasonix",
  cases: REASONIX_CASES,
  runPeer: runReasonixCase,
  runKeel: (c) => runKeelCase(c, "reasonix"),
  // Each agent words its own tools' output; only what hooks caused is compared.
  modelView: "hooks",
});
