/**
 * The corpus end to end: for one fixture per dialect, a real `keel run` (the built CLI) against
 * the simulator, with the project trusted, checking what the model was sent and what happened
 * to the files — the hook's effect as a user of that agent would see it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { CliDriver, trustIn } from "./batch.js";
import { type CorpusProject, corpusProject, type Dialect, KEEL_BIN, keelCli } from "./harness.js";

interface RunOutput {
  result: string;
  toolCalls: Array<{ name: string; input: Record<string, unknown>; status: string }>;
}

const open: Array<{ sim: Simulator; p: CorpusProject }> = [];
afterEach(async () => {
  for (const { sim, p } of open.splice(0)) {
    await sim.close();
    p.dispose();
  }
});

/**
 * Trust only prepares each test's project: it runs in one process for the whole file
 * (test/corpus/batch.ts), through the built program's `main` as bin/keel.js does, instead of a
 * CLI start per test; hooks-test.test.ts trusts through bin/keel.js itself. `keel run` below is
 * the built CLI's own process.
 */
let trustDriver: CliDriver | undefined;
afterAll(async () => {
  await trustDriver?.stop();
});

/** A trusted temp project from a fixture, with a simulator scripted by `replies` as the model. */
async function world(dialect: Dialect, fixture: string, replies: Parameters<typeof script>) {
  const sim = await startSimulator({ script: script(...replies) });
  const p = corpusProject(dialect, fixture, {
    DEEPSEEK_API_KEY: "sk-test-key",
    KEEL_BASE_URL: sim.url,
    KEEL_MODEL: "deepseek-v4-flash",
  });
  open.push({ sim, p });
  trustDriver ??= new CliDriver(p.env);
  await trustIn(trustDriver, p);
  return { sim, p };
}

async function run(p: CorpusProject, prompt: string) {
  const r = await keelCli(p, [
    "run",
    prompt,
    "--yes",
    "--output-format",
    "json",
    "--cwd",
    p.project,
  ]);
  let out: RunOutput;
  try {
    out = JSON.parse(r.stdout.trim());
  } catch {
    throw new Error(`keel run printed no JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { ...r, out };
}

function write(p: CorpusProject, rel: string, content: string): void {
  mkdirSync(join(p.project, rel, ".."), { recursive: true });
  writeFileSync(join(p.project, rel), content);
}

/** Everything the model was sent in request `i`, as one string. */
function sent(sim: Simulator, i: number): string {
  return (sim.requests[i]?.messages ?? []).map((m) => JSON.stringify(m.content)).join("\n");
}

/** A shell call the model asks for that the dialect's guard must block, told to the model. */
async function expectShellBlocked(dialect: Dialect, fixture: string, command: string, why: string) {
  const { sim, p } = await world(dialect, fixture, [
    reply().tool("shell", { command }),
    reply().text("ok"),
  ]);
  write(p, "tmp/keep.txt", "keep me");
  const r = await run(p, "clean up");
  expect(r.code, r.stderr).toBe(0);
  expect(r.out.toolCalls).toEqual([{ name: "shell", input: { command }, status: "blocked" }]);
  expect(readFileSync(join(p.project, "tmp/keep.txt"), "utf8")).toBe("keep me");
  expect(sent(sim, 1)).toContain(why);
}

beforeAll(() => {
  if (!existsSync(join(KEEL_BIN, "..", "..", "dist"))) throw new Error("run `npm run build` first");
});

describe("hook corpus: keel run against the simulator", () => {
  it("Claude rm -rf guard: the tool never runs and the model is told why", async () => {
    const { sim, p } = await world("claude", "rm-rf-guard", [
      reply().tool("shell", { command: "rm -rf build" }),
      reply().text("ok, leaving build alone"),
    ]);
    write(p, "build/out.js", "keep me");
    const r = await run(p, "clean the build folder");
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.toolCalls).toEqual([
      { name: "shell", input: { command: "rm -rf build" }, status: "blocked" },
    ]);
    expect(readFileSync(join(p.project, "build/out.js"), "utf8")).toBe("keep me");
    expect(sent(sim, 1)).toContain("Blocked dangerous command: rm -rf build");
  });

  it("Claude ralph-loop Stop hook: blocks with the loop prompt, then lets the promise end it", async () => {
    const { sim, p } = await world("claude", "ralph-loop", [
      reply().text("Fixed two of three tests."),
      reply().text("All fixed. <promise>ALL TESTS GREEN</promise>"),
    ]);
    write(
      p,
      ".claude/ralph-loop.local.md",
      '---\nactive: true\niteration: 1\nmax_iterations: 10\ncompletion_promise: "ALL TESTS GREEN"\n---\nMake the failing tests pass.\n',
    );
    const r = await run(p, "Make the failing tests pass.");
    expect(r.code, r.stderr).toBe(0);
    // The first Stop: the transcript's last assistant text has no promise → continue.
    expect(sim.requests).toHaveLength(2);
    expect(sent(sim, 1)).toContain("Fixed two of three tests.");
    // The second Stop read the promise from transcript_path and removed the loop's state file.
    expect(existsSync(join(p.project, ".claude/ralph-loop.local.md"))).toBe(false);
    expect(r.out.result).toContain("ALL TESTS GREEN");
  });

  it("Claude Bash output scanner: a printed key is flagged to the model (decision block on PostToolUse)", async () => {
    const { sim, p } = await world("claude", "bash-stdout-scan", [
      reply().tool("shell", { command: "cat .env.example" }),
      reply().text("ok"),
    ]);
    write(p, ".env.example", "KEY=sk-abcdefghijklmnopqrstuvwx\n");
    const r = await run(p, "show the example env");
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.toolCalls.map((c) => c.status)).toEqual(["ok"]);
    expect(sent(sim, 1)).toContain("looks like an API key; do not repeat it.");
  });

  it("Claude PreToolUse additionalContext reaches the model", async () => {
    const { sim, p } = await world("claude", "pre-context", [
      reply().tool("shell", { command: "ls" }),
      reply().text("ok"),
    ]);
    const r = await run(p, "list files");
    expect(r.code, r.stderr).toBe(0);
    expect(sent(sim, 1)).toContain("Note: this repo runs tests with pnpm vitest.");
  });

  it("Claude SessionStart CLAUDE_ENV_FILE: exported variables reach later shell calls", async () => {
    const { sim, p } = await world("claude", "env-file", [
      reply().tool("shell", { command: "echo stage=$APP_STAGE" }),
      reply().text("ok"),
    ]);
    const r = await run(p, "which stage?");
    expect(r.code, r.stderr).toBe(0);
    expect(sent(sim, 1)).toContain("stage=staging");
  });

  it("Claude tests-must-pass Stop hook: one continue with the failures, then stop_hook_active lets it end", async () => {
    const { sim, p } = await world("claude", "stop-tests-gate", [
      reply().text("Done."),
      reply().text("I could not fix parser.test.ts."),
    ]);
    write(p, "FAILING", "parser.test.ts");
    const r = await run(p, "fix the parser");
    expect(r.code, r.stderr).toBe(0);
    expect(sim.requests).toHaveLength(2);
    expect(sent(sim, 1)).toContain("1 failed: parser.test.ts");
    expect(r.out.result).toContain("could not fix");
  });

  it("Reasonix format-after-write: the file the model wrote is formatted on disk", async () => {
    const { p } = await world("reasonix", "format-json", [
      reply().tool("write_file", {
        path: "package.json",
        content: '{"name":"demo","private":true}',
      }),
      reply().text("written"),
    ]);
    const r = await run(p, "create package.json");
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.toolCalls.map((c) => c.status)).toEqual(["ok"]);
    expect(readFileSync(join(p.project, "package.json"), "utf8")).toBe(
      '{\n  "name": "demo",\n  "private": true\n}\n',
    );
  });

  it("cagent sudo guard: the shell call is blocked with the hook's reason", async () => {
    const { sim, p } = await world("cagent", "sudo-guard", [
      reply().tool("shell", { command: "sudo touch marker" }),
      reply().text("understood"),
    ]);
    const r = await run(p, "install it system-wide");
    expect(r.code, r.stderr).toBe(0);
    expect(r.out.toolCalls.map((c) => c.status)).toEqual(["blocked"]);
    expect(existsSync(join(p.project, "marker"))).toBe(false);
    expect(sent(sim, 1)).toContain("no sudo in this environment");
  });

  it(".hooks.json SessionStart banner: its stdout reaches the model with the first prompt", async () => {
    const { sim, p } = await world("tutorial", "session-banner", [reply().text("noted")]);
    const r = await run(p, "what should I know?");
    expect(r.code, r.stderr).toBe(0);
    const first = sim.requests[0]?.messages.at(-1);
    expect(first?.role).toBe("user");
    expect(JSON.stringify(first?.content)).toContain("branch notes: release freeze until Friday");
  });

  it("Gemini CLI BeforeTool guard: {decision: deny} blocks run_shell_command", () =>
    expectShellBlocked(
      "gemini",
      "shell-guard",
      "rm -rf tmp",
      "Security policy: refusing rm -rf tmp",
    ));

  it("Qwen Code PreToolUse guard: permissionDecision deny blocks run_shell_command", () =>
    expectShellBlocked(
      "qwen",
      "shell-deny",
      "docker system prune -af",
      "docker system prune removes shared caches",
    ));

  it("Codex PreToolUse Bash guard: permissionDecision deny blocks the shell call", () =>
    expectShellBlocked(
      "codex",
      "shell-guard",
      "rm -rf tmp",
      "recursive force delete is not allowed: rm -rf tmp",
    ));

  it("Reasonix 1.x bash guard: exit 2 blocks the call", () =>
    expectShellBlocked("reasonix1", "bash-deny", "rm -rf tmp", "rm -rf refused: rm -rf tmp"));
});
