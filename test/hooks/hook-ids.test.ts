/**
 * Hook ids are hashed when first read (so `keel hooks list` loads no crypto), yet they are the
 * ids they always were: stats files across sessions are keyed by them. Repeats are numbered in
 * file order, and the trust-resolved copies in a snapshot carry the same ids.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/base/index.js";
import { loadHooks } from "../../src/hooks/config/load.js";
import { takeSnapshot } from "../../src/hooks/snapshot.js";
import { makeWorld, type World } from "./helpers.js";

let w: World;
afterEach(() => w.cleanup());

/** The id formula, written out independently of the code under test. */
function expectedId(path: string, event: string, matcher: string, command: string): string {
  const identity = canonicalJson({ type: "command", command });
  const text = canonicalJson([path, event, matcher, identity]);
  return `h${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
}

describe("hook ids", () => {
  it("are the sha256 of where and what, repeats numbered, the same in a snapshot", async () => {
    w = makeWorld();
    const handler = { type: "command", command: "echo same" };
    const path = w.json("keel/settings.json", {
      hooks: {
        PreToolUse: [
          { matcher: "read_file", hooks: [handler, handler, { type: "command", command: "x" }] },
        ],
        Stop: [{ hooks: [handler] }],
      },
    });
    const paths = { projectDir: w.project, keelHome: w.keelHome, homeDir: w.home };
    const loaded = await loadHooks(paths);
    const same = expectedId(path, "PreToolUse", "read_file", "echo same");
    expect(loaded.hooks.map((h) => h.id)).toEqual([
      same,
      `${same}-2`,
      expectedId(path, "PreToolUse", "read_file", "x"),
      expectedId(path, "Stop", "", "echo same"),
    ]);
    const snapshot = await takeSnapshot(paths);
    expect(snapshot.listing.hooks.map((h) => h.id)).toEqual(loaded.hooks.map((h) => h.id));
    expect(snapshot.listing.hooks.every((h) => h.trusted)).toBe(true);
    expect(JSON.parse(JSON.stringify(snapshot.listing.hooks[1])).id).toBe(`${same}-2`);
  });
});
