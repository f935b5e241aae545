/**
 * Runs one case through the real Claude Code (`claude -p`) against the Anthropic simulator and
 * returns what its hooks and its model observed.
 */
import { spawn } from "node:child_process";
import { type AnthropicReply, startAnthropicSim } from "./anthropic-sim.js";
import { claudeHeadless } from "./headless.js";
import { modelItemsFromAnthropic } from "./model-view.js";
import { resultText } from "./observation.js";
import { makeCaseDirs, projectFiles, readRecords, writeClaudeSettings } from "./project.js";
import type { CompatCase, ModelTurn, Observation } from "./types.js";

/** How to start the real binary (from scripts/install-peer.mjs). */
export interface PeerCommand {
  command: string;
  args: string[];
}

/** The Anthropic replies of a case (Claude's tool names and fields, `$PROJECT` expanded). */
export function claudeReplies(turns: readonly ModelTurn[], project: string): AnthropicReply[] {
  return turns.map((t) => ({
    ...(t.text !== undefined ? { text: t.text } : {}),
    ...(t.calls
      ? {
          toolCalls: t.calls.map((c) => ({
            name: c.tool,
            input: expand(c.input, project) as Record<string, unknown>,
          })),
        }
      : {}),
  }));
}

function expand(value: unknown, project: string): unknown {
  if (typeof value === "string") return value.replaceAll("$PROJECT", project);
  if (Array.isArray(value)) return value.map((v) => expand(v, project));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, project)]));
  }
  return value;
}

/** Runs `c` through Claude Code. */
export async function runClaudeCase(c: CompatCase, claude: PeerCommand): Promise<Observation> {
  const dirs = makeCaseDirs(c, "claude");
  writeClaudeSettings(dirs, c.hooks);
  const sim = await startAnthropicSim(claudeReplies(c.turns, dirs.project));
  try {
    const start = claudeHeadless({ simUrl: sim.url, home: dirs.home, prompt: c.prompt });
    const env = start.env;
    const args = [...claude.args, ...start.args];
    const run = await spawnCollect(claude.command, args, { cwd: dirs.project, env });
    const result = resultText(run.stdout);
    const notes = sim.unknownPaths.length > 0 ? [`unknown paths: ${sim.unknownPaths}`] : [];
    return {
      exitCode: run.code,
      result,
      hooks: readRecords(dirs),
      modelView: sim.turns().map((r) => modelItemsFromAnthropic(r.body)),
      files: projectFiles(dirs),
      paths: { root: dirs.root, project: dirs.project, home: dirs.home },
      notes,
    };
  } finally {
    await sim.close();
  }
}

/** Spawns a program, collects stdout/stderr, resolves with its exit code (never rejects). */
export function spawnCollect(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", (err) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${String(err)}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
