/**
 * Runs one case through Keel (`bin/keel.js run`, the built CLI) against Keel's DeepSeek
 * simulator, with the same `.claude/settings.json` hooks trusted, and returns what its hooks and
 * its model observed.
 */
import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../src/sim/index.js";
import type { ScriptReply } from "../src/sim/script.js";
import { chatObservation } from "./observation.js";
import { makeCaseDirs, writeClaudeStyleSettings, writeReasonixSettings } from "./project.js";
import { spawnCollect } from "./run-claude.js";
import type { CompatCase, ModelCall, ModelTurn, Observation } from "./types.js";

const KEEL_BIN = fileURLToPath(new URL("../bin/keel.js", import.meta.url));

/** Keel's tool call equivalent to a Claude call (paths relative, as a model writes them). */
export function keelCall(
  call: ModelCall,
  project: string,
): { name: string; arguments: Record<string, unknown> } {
  const input = call.input;
  const path = (v: unknown) =>
    typeof v === "string" ? relative(project, v.replaceAll("$PROJECT", project)) : v;
  switch (call.tool) {
    case "Bash":
      return { name: "shell", arguments: { command: input.command } };
    case "Write":
      return {
        name: "write_file",
        arguments: { path: path(input.file_path), content: input.content },
      };
    case "Read":
      return { name: "read_file", arguments: { path: path(input.file_path) } };
    case "Edit": {
      const args: Record<string, unknown> = {
        path: path(input.file_path),
        old_string: input.old_string,
        new_string: input.new_string,
      };
      if (input.replace_all !== undefined) args.replace_all = input.replace_all;
      return { name: "edit_file", arguments: args };
    }
  }
}

/** The DeepSeek simulator script of a case. */
export function keelReplies(turns: readonly ModelTurn[], project: string): ScriptReply[] {
  return turns.map((t) => ({
    ...(t.text !== undefined ? { text: t.text } : {}),
    ...(t.calls ? { toolCalls: t.calls.map((c) => keelCall(c, project)) } : {}),
  }));
}

/** Runs `c` through Keel, with the hooks written in `format`'s settings file. */
export async function runKeelCase(
  c: CompatCase,
  format: "claude" | "reasonix" | "qwen" | "gemini" = "claude",
): Promise<Observation> {
  const dirs = makeCaseDirs(c, "keel");
  if (format === "reasonix") writeReasonixSettings(dirs, c.hooks);
  else writeClaudeStyleSettings(dirs, `.${format}`, c.hooks);
  const keelHome = join(dirs.home, ".keel");
  mkdirSync(keelHome, { recursive: true });
  const sim = await startSimulator({ script: { replies: keelReplies(c.turns, dirs.project) } });
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dirs.home,
      LANG: "C.UTF-8",
      KEEL_HOME: keelHome,
      KEEL_BASE_URL: sim.url,
      KEEL_MODEL: "deepseek-v4-flash",
      DEEPSEEK_API_KEY: "sk-test",
    };
    const opts = { cwd: dirs.project, env };
    const trust = await spawnCollect(process.execPath, [KEEL_BIN, "hooks", "trust"], opts);
    const notes = trust.code === 0 ? [] : [`keel hooks trust failed: ${trust.stderr.trim()}`];
    // Claude Code runs at an effort level by default (its default model's); Keel asks for one
    // only when told. The like-for-like run asks for one (docs/hooks.md).
    const run = await spawnCollect(
      process.execPath,
      [
        ...[KEEL_BIN, "run", c.prompt, "--output-format", "json", "--mode", "bypassPermissions"],
        ...["--effort", "high"],
      ],
      opts,
    );
    return chatObservation({
      run,
      dirs,
      requests: sim.requests,
      notes: run.stderr.trim() ? [...notes, `stderr: ${run.stderr.trim()}`] : notes,
    });
  } finally {
    await sim.close();
  }
}
