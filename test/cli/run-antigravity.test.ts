/**
 * Antigravity hooks end to end through `keel run` against the simulator: a user-level
 * `~/.gemini/config/hooks.json` guard written as Antigravity documents it (named hook, `decision`
 * JSON on stdout) refuses a command even with --yes, sees agy's payload, and a project
 * `.agents/hooks.json` runs only once trusted.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { hookScript, keel, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** A guard that records its stdin and denies any command naming `rm`. */
const GUARD = `in=$(cat)
printf '%s' "$in" > "$REC"
case "$in" in
  *'"CommandLine":"rm '*) printf '{"decision":"deny","reason":"rm is not allowed here"}' ;;
  *) printf '{"decision":"allow"}' ;;
esac`;

function writeHooks(path: string, command: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(
    path,
    JSON.stringify({
      "no-rm": {
        PreToolUse: [
          { matcher: "run_command", hooks: [{ type: "command", command, timeout: 10 }] },
        ],
      },
    }),
  );
}

describe("keel run: Antigravity hooks", () => {
  it("a user guard's deny holds with --yes, and its stdin is agy's camelCase payload", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "rm -rf victim" }), reply().text("done")),
    );
    writeFileSync(join(world.project, "victim"), "keep me");
    const rec = join(world.root, "seen.json");
    const hook = hookScript(world, "guard.sh", GUARD.replace("$REC", rec));
    writeHooks(join(world.root, ".gemini/config/hooks.json"), hook);
    const r = await keel(world, ["run", "clean up", "--yes"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.project, "victim"))).toBe(true);
    expect(r.stdout + r.stderr).toMatch(/rm is not allowed here/);
    const seen = JSON.parse(readFileSync(rec, "utf8")) as Record<string, unknown>;
    expect(seen.toolCall).toEqual({
      name: "run_command",
      args: { CommandLine: "rm -rf victim", Cwd: world.project },
    });
    expect(seen).toMatchObject({ stepIdx: 1, workspacePaths: [world.project] });
    expect(typeof seen.conversationId).toBe("string");
  });

  it("a project .agents/hooks.json is not run until trusted (and headless --yes refuses to start)", async () => {
    const world = await newWorld(
      script(reply().tool("shell", { command: "rm -rf victim" }), reply().text("done")),
    );
    writeFileSync(join(world.project, "victim"), "keep me");
    const rec = join(world.root, "seen.json");
    const hook = hookScript(world, "guard.sh", GUARD.replace("$REC", rec));
    writeHooks(join(world.project, ".agents/hooks.json"), hook);
    const untrusted = await keel(world, ["run", "clean up", "--yes"]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/\.agents\/hooks\.json/);
    expect(existsSync(rec)).toBe(false);
    const trusted = await keel(world, ["hooks", "trust", "--cwd", world.project]);
    expect(trusted.code).toBe(0);
    const r = await keel(world, ["run", "clean up", "--yes"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(world.project, "victim"))).toBe(true);
    expect(existsSync(rec)).toBe(true);
  });
});
