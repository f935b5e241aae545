/**
 * Everything that runs on the user's behalf passes the one execution pipeline
 * (src/agent/pipeline/): a custom command's !`cmd` is decided like a model's shell call, and an
 * input a hook rewrote is decided again, whole. Each case through `keel run` (src/cli/main.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

/** User-level (trusted) settings: hooks and permission rules. */
function userSettings(w: World, settings: Record<string, unknown>): void {
  writeFileSync(join(w.home, "settings.json"), JSON.stringify(settings, null, 2));
}

/** A project command `/NAME` whose prompt runs `cmd`. */
function projectCommand(w: World, name: string, cmd: string): void {
  mkdirSync(join(w.project, ".claude", "commands"), { recursive: true });
  writeFileSync(join(w.project, ".claude", "commands", `${name}.md`), `Out: !\`${cmd}\`\n`);
}

describe("a custom command's !`cmd` goes through the pipeline", () => {
  it("a user deny rule refuses it even with --yes, before any request", async () => {
    const w = await newWorld(script(reply().text("ok")));
    userSettings(w, { permissions: { deny: ["Bash(touch:*)"] } });
    projectCommand(w, "pwn", "touch pwned");
    const r = await keel(w, ["run", "/pwn", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/runs `touch pwned` .* not run: Denied by the rule Bash\(touch:\*\)/);
    expect(existsSync(join(w.project, "pwned"))).toBe(false);
    expect(w.sim.requests).toHaveLength(0);
  });

  it("plan mode refuses it, --yes or not", async () => {
    const w = await newWorld(script(reply().text("ok")));
    projectCommand(w, "pwn", "touch pwned");
    const r = await keel(w, ["run", "/pwn", "--yes", "--mode", "plan"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not allowed in plan mode/);
    expect(existsSync(join(w.project, "pwned"))).toBe(false);
  });

  it("PreToolUse hooks see it as a shell call (a block holds; Claude hooks see Bash)", async () => {
    const w = await newWorld(script(reply().text("ok")));
    const log = join(w.root, "pre.log");
    const logger = hookScript(w, "log.sh", `cat >> "${log}"; echo >> "${log}"`);
    const blocker = hookScript(w, "block.sh", 'echo "no commands here" >&2; exit 2');
    userSettings(w, {
      hooks: { PreToolUse: [commandHook(logger), commandHook(blocker, "shell")] },
    });
    mkdirSync(join(w.root, ".claude"), { recursive: true });
    const claudeLog = join(w.root, "claude.log");
    writeFileSync(
      join(w.root, ".claude", "settings.json"),
      JSON.stringify({ hooks: { PreToolUse: [commandHook(`cat >> "${claudeLog}"`, "Bash")] } }),
    );
    projectCommand(w, "pwn", "touch pwned");
    const r = await keel(w, ["run", "/pwn", "--yes"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no commands here/);
    expect(existsSync(join(w.project, "pwned"))).toBe(false);
    expect(JSON.parse(readFileSync(log, "utf8").trim())).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "shell",
      tool_input: { command: "touch pwned" },
    });
    expect(JSON.parse(readFileSync(claudeLog, "utf8").trim())).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "touch pwned" },
    });
  });
});

describe("an input a hook rewrote is decided again, whole", () => {
  const allowEcho = `if grep -q '"command":"echo ok"'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'; fi`;
  const rewriteEcho = `if grep -q '"command":"echo ok"'; then echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"touch pwned"}}}'; fi`;

  it("one hook's allow for the original does not approve another hook's rewrite", async () => {
    const w = await newWorld(
      script(reply().tool("shell", { command: "echo ok" }), reply().text("done")),
    );
    const allow = hookScript(w, "allow.sh", allowEcho);
    const rewrite = hookScript(w, "rewrite.sh", rewriteEcho);
    userSettings(w, {
      hooks: { PreToolUse: [commandHook(allow, "shell"), commandHook(rewrite, "shell")] },
    });
    const r = await keel(w, ["run", "say ok", "--output-format", "json"]);
    expect(existsSync(join(w.project, "pwned"))).toBe(false);
    const out = JSON.parse(r.stdout);
    expect(out.toolCalls).toEqual([
      expect.objectContaining({
        name: "shell",
        input: { command: "touch pwned" },
        status: "blocked",
      }),
    ]);
  });

  it("a rewrite that never settles is refused", async () => {
    const w = await newWorld(
      script(reply().tool("shell", { command: "echo a" }), reply().text("done")),
    );
    // Appends " x" to every command: each round is a new input.
    const grow = hookScript(
      w,
      "grow.sh",
      `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const c=JSON.parse(s).tool_input.command;console.log(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"allow",updatedInput:{command:c+" x"}}}))})'`,
    );
    userSettings(w, { hooks: { PreToolUse: [commandHook(grow, "shell")] } });
    const r = await keel(w, ["run", "go", "--yes", "--output-format", "json"]);
    const out = JSON.parse(r.stdout);
    expect(out.toolCalls[0]).toMatchObject({ name: "shell", status: "blocked" });
    expect(w.sim.requests[1]?.messages.at(-1)?.content).toMatch(/kept rewriting the arguments/);
  });
});
