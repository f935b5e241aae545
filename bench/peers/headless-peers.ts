/**
 * Keel against Claude Code and Codex on the same scripted session: `calls` tool calls, then an
 * answer, each agent against its own API's loopback simulator (Keel: its DeepSeek simulator,
 * src/sim; Claude Code: compat/anthropic-sim.ts; Codex: compat/responses-sim.ts), started
 * headless as compat/headless.ts says, each in its permission-bypass mode.
 *
 * Like for like: against Claude Code the calls are file reads (Keel `read_file` ↔ Claude `Read`,
 * one file per call); against Codex they are shell commands (Keel `shell` ↔ Codex
 * `exec_command`, the same `cat notes-N.txt`: the tool Codex's model reads files with). `hooks`
 * command hooks per call, half on PreToolUse and half on PostToolUse, in each agent's own
 * format and place (Keel: user settings; Claude Code: user settings; Codex: the project's
 * .codex/hooks.json, the layer compat:codex checks). Each hook appends one line to a counter
 * file, checked afterwards: a hook that did not fire cannot make a run look fast.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAnthropicSim } from "../../compat/anthropic-sim.js";
import { claudeHeadless, codexHeadless } from "../../compat/headless.js";
import { startResponsesSim } from "../../compat/responses-sim.js";
import type { PeerCommand } from "../../compat/run-claude.js";
import { script } from "../../src/sim/builder.js";
import { startSimulator } from "../../src/sim/server.js";
import { measure, type Sample } from "./measure.js";

/** Which comparison: file reads against Claude Code, shell commands against Codex. */
export type Versus = "claude" | "codex";

export interface HeadlessSpec {
  versus: Versus;
  calls: number;
  /** Hooks per call: half PreToolUse, half PostToolUse. */
  hooks: number;
}

const PROMPT = "Read the notes files and summarize them.";
const ANSWER = "Read the notes; the module parses its input at the boundary.";
const LINE = "The module parses its input once at the boundary and hands typed values on. ";

/** Each agent's name for the tool the session calls (the hooks' matcher). */
const MATCHER = {
  keel: { claude: "read_file", codex: "shell" },
  claude: "Read",
  codex: "Bash",
} as const;

/** Claude-shaped hook settings (Claude Code's and Codex's format): `hooks` distinct commands,
 *  half before and half after the call (distinct: agents run identical handlers once). */
function claudeShapedHooks(hooks: number, matcher: string, counter: string) {
  const handlers = (event: string, n: number) =>
    Array.from({ length: n }, (_, k) => ({
      type: "command",
      command: `echo ${event}-${k} >> '${counter}'`,
    }));
  const pre = Math.ceil(hooks / 2);
  return {
    hooks: {
      PreToolUse: [{ matcher, hooks: handlers("pre", pre) }],
      PostToolUse: [{ matcher, hooks: handlers("post", hooks - pre) }],
    },
  };
}

/** One measured session of `agent` (Keel, or the peer of `spec.versus`). */
export async function headlessSession(
  root: string,
  agent: "keel" | Versus,
  spec: HeadlessSpec,
  peer: PeerCommand,
  keelCommand: string[],
  i: number,
): Promise<Sample> {
  const dir = join(root, `${agent}-vs-${spec.versus}-${spec.hooks}-${i}`);
  const project = join(dir, "project");
  const home = join(dir, "home");
  for (const d of [project, home]) mkdirSync(d, { recursive: true });
  for (let f = 0; f < spec.calls; f++) {
    writeFileSync(join(project, `notes-${f}.txt`), `${f}: ${LINE.repeat(24)}\n`);
  }
  const counter = join(dir, "hook-count");
  writeFileSync(counter, "");
  const log = join(dir, "output.txt");
  const file = (f: number) => `notes-${f}.txt`;
  let run: { sample: Sample; answered: () => number; close: () => Promise<void> };

  if (agent === "keel") {
    const s = script();
    for (let c = 0; c < spec.calls; c++) {
      if (spec.versus === "claude") s.tool("read_file", { path: file(c) });
      else s.tool("shell", { command: `cat ${file(c)}` });
    }
    s.text(ANSWER);
    const sim = await startSimulator({ script: s, keepBodies: false });
    const keelHome = join(home, ".keel");
    mkdirSync(keelHome, { recursive: true });
    writeFileSync(
      join(keelHome, "config.json"),
      JSON.stringify({ apiKey: "sk-bench-0123456789", baseUrl: sim.url }),
      { mode: 0o600 },
    );
    if (spec.hooks > 0) {
      const hooks = claudeShapedHooks(spec.hooks, MATCHER.keel[spec.versus], counter);
      writeFileSync(join(keelHome, "settings.json"), JSON.stringify(hooks));
    }
    const env = { PATH: process.env.PATH, HOME: home, KEEL_HOME: keelHome, TERM: "dumb" };
    const cmd = [
      ...keelCommand,
      "run",
      PROMPT,
      "--mode",
      "bypassPermissions",
      "--max-turns",
      String(spec.calls + 5),
      "--output-format",
      "json",
    ];
    const sample = await measure(cmd, { ...env, MEASURE_STDOUT: log }, project);
    run = {
      sample,
      answered: () => sim.requests.filter((q) => q.status === 200).length,
      close: () => sim.close(),
    };
  } else if (agent === "claude") {
    const replies = Array.from({ length: spec.calls }, (_, c) => ({
      toolCalls: [{ name: "Read", input: { file_path: join(project, file(c)) } }],
    }));
    const sim = await startAnthropicSim([...replies, { text: ANSWER }]);
    if (spec.hooks > 0) {
      mkdirSync(join(home, ".claude"), { recursive: true });
      const hooks = claudeShapedHooks(spec.hooks, MATCHER.claude, counter);
      writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify(hooks));
    }
    const start = claudeHeadless({ simUrl: sim.url, home, prompt: PROMPT });
    const cmd = [peer.command, ...peer.args, ...start.args];
    const sample = await measure(cmd, { ...start.env, MEASURE_STDOUT: log }, project);
    run = { sample, answered: () => sim.turns().length, close: () => sim.close() };
  } else {
    const replies = Array.from({ length: spec.calls }, (_, c) => ({
      items: [
        {
          type: "function_call" as const,
          name: "exec_command",
          arguments: { cmd: `cat ${file(c)}` },
        },
      ],
    }));
    const sim = await startResponsesSim([
      ...replies,
      { items: [{ type: "message", text: ANSWER }] },
    ]);
    if (spec.hooks > 0) {
      mkdirSync(join(project, ".codex"), { recursive: true });
      const hooks = claudeShapedHooks(spec.hooks, MATCHER.codex, counter);
      writeFileSync(join(project, ".codex", "hooks.json"), JSON.stringify(hooks));
    }
    const start = codexHeadless({ simUrl: sim.url, home, project, prompt: PROMPT });
    const cmd = [peer.command, ...peer.args, ...start.args];
    const sample = await measure(cmd, { ...start.env, MEASURE_STDOUT: log }, project);
    run = { sample, answered: () => sim.turns().length, close: () => sim.close() };
  }
  try {
    const answered = run.answered();
    const tail = () => readFileSync(log, "utf8").slice(-2000);
    if (run.sample.code !== 0 || answered < spec.calls + 1) {
      throw new Error(
        `${agent} vs ${spec.versus}, ${spec.hooks} hooks: exit ${run.sample.code}, ${answered} model requests answered (want ${spec.calls + 1}):\n${tail()}`,
      );
    }
    const hookRuns = readFileSync(counter, "utf8").split("\n").length - 1;
    if (hookRuns !== spec.calls * spec.hooks) {
      throw new Error(
        `${agent} vs ${spec.versus}: ${hookRuns} hook runs, expected ${spec.calls * spec.hooks}:\n${tail()}`,
      );
    }
    return run.sample;
  } finally {
    await run.close();
  }
}
