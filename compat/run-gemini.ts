/**
 * Runs one case through the real Gemini CLI (`gemini -p --output-format json --approval-mode
 * yolo`) against the Gemini API simulator (GOOGLE_GEMINI_BASE_URL), with the case's hooks in
 * `.gemini/settings.json`, and returns what its hooks and its model observed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type GeminiReply, startGeminiSim } from "./gemini-sim.js";
import { modelItemsFromGemini } from "./gemini-view.js";
import { resultText } from "./observation.js";
import { makeCaseDirs, projectFiles, readRecords, writeClaudeStyleSettings } from "./project.js";
import { type PeerCommand, spawnCollect } from "./run-claude.js";
import type { CompatCase, ModelCall, ModelTurn, Observation } from "./types.js";

/** Gemini CLI 0.61's function call equivalent to a Claude call (absolute `file_path`). */
export function geminiCall(call: ModelCall, project: string) {
  const input = call.input;
  const path = (v: unknown) => (typeof v === "string" ? v.replaceAll("$PROJECT", project) : v);
  switch (call.tool) {
    case "Bash":
      return { name: "run_shell_command", args: { command: input.command } };
    case "Write":
      return {
        name: "write_file",
        args: { file_path: path(input.file_path), content: input.content },
      };
    case "Read":
      return { name: "read_file", args: { file_path: path(input.file_path) } };
    case "Edit":
      return {
        name: "replace",
        // Gemini CLI 0.61's replace requires an instruction (the model's summary of the edit).
        args: {
          file_path: path(input.file_path),
          instruction: "edit the file",
          old_string: input.old_string,
          new_string: input.new_string,
        },
      };
  }
}

/** The simulator script of a case in Gemini CLI's tool names. */
export function geminiReplies(turns: readonly ModelTurn[], project: string): GeminiReply[] {
  return turns.map((t) => ({
    ...(t.text !== undefined ? { text: t.text } : {}),
    ...(t.calls ? { calls: t.calls.map((c) => geminiCall(c, project)) } : {}),
  }));
}

/** User settings that keep Gemini CLI quiet and offline. */
export const GEMINI_USER_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  security: { auth: { selectedType: "gemini-api-key" } },
};

/** Runs `c` through Gemini CLI. */
export async function runGeminiCase(c: CompatCase, gemini: PeerCommand): Promise<Observation> {
  const dirs = makeCaseDirs(c, "gemini");
  writeClaudeStyleSettings(dirs, ".gemini", c.hooks);
  mkdirSync(join(dirs.home, ".gemini"), { recursive: true });
  writeFileSync(
    join(dirs.home, ".gemini", "settings.json"),
    `${JSON.stringify(GEMINI_USER_SETTINGS, null, 2)}\n`,
  );
  const sim = await startGeminiSim(geminiReplies(c.turns, dirs.project));
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dirs.home,
      LANG: "C.UTF-8",
      GEMINI_API_KEY: "sk-test",
      GOOGLE_GEMINI_BASE_URL: sim.url,
      // Headless runs refuse an untrusted folder; Keel's side trusts its hooks too.
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      GEMINI_CLI_NO_RELAUNCH: "true",
    };
    const args = [
      ...gemini.args,
      "-p",
      c.prompt,
      "--output-format",
      "json",
      "--approval-mode",
      "yolo",
      "--model",
      "gemini-2.5-flash",
    ];
    const run = await spawnCollect(gemini.command, args, { cwd: dirs.project, env });
    const stderr = run.stderr.trim();
    return {
      exitCode: run.code,
      result: resultText(run.stdout),
      hooks: readRecords(dirs),
      modelView: sim.turns().map((r) => modelItemsFromGemini(r.body)),
      files: projectFiles(dirs),
      paths: { root: dirs.root, project: dirs.project, home: dirs.home },
      notes: stderr ? [`stderr: ${stderr.slice(0, 300)}`] : [],
    };
  } finally {
    await sim.close();
  }
}
