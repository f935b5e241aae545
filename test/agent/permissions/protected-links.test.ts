/**
 * Protected paths through links (issue 26): a link whose target does not exist yet, a link
 * resolved relative to a linked parent folder, and `.keel` itself a link to another folder must
 * not let the model write `disableAllHooks` into a settings file. Through `keel run` headless
 * in acceptEdits (no person: refused).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../harness.js";

const newWorld = worldPerTest();
const OFF = JSON.stringify({ disableAllHooks: true });

async function writeThrough(world: World, path: string) {
  const r = await keel(world, ["run", "go", "--mode", "acceptEdits", "--output-format", "json"]);
  const call = JSON.parse(r.stdout).toolCalls[0];
  const toolMsg = world.sim.requests[1]?.messages.at(-1)?.content ?? "";
  return { status: call.status as string, toolMsg: String(toolMsg), path };
}

function world(path: string) {
  return newWorld(script(reply().tool("write_file", { path, content: OFF }), reply().text("done")));
}

describe("protected paths through links (keel run, acceptEdits, headless)", () => {
  it("a dangling link through a linked parent folder into .keel/settings.json is refused", async () => {
    const w = await world("deep/notes.txt");
    const p = w.project;
    mkdirSync(join(p, ".keel"));
    mkdirSync(join(p, "sub/deeper"), { recursive: true });
    symlinkSync("sub/deeper", join(p, "deep"));
    // Relative to where the link really is (sub/deeper): ../../.keel/settings.json.
    symlinkSync("../../.keel/settings.json", join(p, "sub/deeper/notes.txt"));
    const r = await writeThrough(w, "deep/notes.txt");
    expect(r.status).toBe("blocked");
    expect(r.toolMsg).toContain("protected path");
    expect(existsSync(join(p, ".keel/settings.json"))).toBe(false);
  });

  it(".keel as a link to another folder: a write to that folder's settings.json is refused", async () => {
    const w = await world("conf/settings.json");
    const p = w.project;
    mkdirSync(join(p, "conf"));
    symlinkSync("conf", join(p, ".keel"));
    const r = await writeThrough(w, "conf/settings.json");
    expect(r.status).toBe("blocked");
    expect(r.toolMsg).toContain("Keel settings file");
    expect(existsSync(join(p, "conf/settings.json"))).toBe(false);
  });

  it("a dangling link into .claude/settings.json (not there yet) is refused", async () => {
    const w = await world("notes.txt");
    const p = w.project;
    symlinkSync(".claude/settings.json", join(p, "notes.txt"));
    const r = await writeThrough(w, "notes.txt");
    expect(r.status).toBe("blocked");
    expect(existsSync(join(p, ".claude/settings.json"))).toBe(false);
  });

  it("an ordinary file is still written", async () => {
    const w = await world("plain.txt");
    const r = await writeThrough(w, "plain.txt");
    expect(r.status).not.toBe("blocked");
    expect(readFileSync(join(w.project, "plain.txt"), "utf8")).toBe(OFF);
  });
});
