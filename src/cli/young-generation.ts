/**
 * A session's young generation kept at V8's initial 1 MB semi-space. Under a long session's
 * allocation rate V8 otherwise grows it to 16 MB per semi-space: resident memory Keel never
 * needs (bench/peers: peak RSS of a 200-turn session); the cost is more, smaller scavenges.
 *
 * Set at run time rather than with `node --max-semi-space-size=1` on the `#!` line: any V8 flag
 * given at start makes V8 reject the code cache Node ships for its own modules, and every
 * command (`keel --help`, `keel hooks list`) then compiled those from source (~10 ms).
 *
 * Set at run time, it does the same to every module loaded after it (a flag changes the hash V8
 * checks a code cache against): Node's own (node:https, node:assert… twice as slow to load) and
 * the bundle's chunks in Keel's compile cache. So a session sets it once its modules are
 * loaded: `keel run` when the agent is made, the TUI after its first frame and the session's
 * opening. (Set at start, it cost the TUI's first frame ~12 ms.)
 */
import { setFlagsFromString } from "node:v8";

/** Stops the young generation from growing beyond its initial size (sessions only). */
export function keepYoungGenerationSmall(): void {
  // The growth factor is read each time V8 considers growing the semi-space.
  setFlagsFromString("--semi-space-growth-factor=1");
}
