/**
 * Runs one case through the real Qwen Code (`qwen -p --output-format json --approval-mode yolo`)
 * against Keel's DeepSeek simulator (its OpenAI auth pointed at the simulator's URL), with the
 * case's hooks in `.qwen/settings.json`, and returns what its hooks and its model observed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSimulator } from "../src/sim/index.js";
import type { ScriptReply } from "../src/sim/script.js";
import { chatObservation } from "./observation.js";
import { makeCaseDirs, writeClaudeStyleSettings } from "./project.js";
import { modelItemsFromQwen } from "./qwen-view.js";
import { type PeerCommand, spawnCollect } from "./run-claude.js";
import type { CompatCase, ModelCall, ModelTurn, Observation } from "./types.js";

/** Qwen Code 0.15's tool call equivalent to a Claude call (absolute `file_path` everywhere). */
export function qwenCall(call: ModelCall, project: string) {
  const input = call.input;
  const path = (v: unknown) => (typeof v === "string" ? v.replaceAll("$PROJECT", project) : v);
  switch (call.tool) {
    case "Bash":
      return { name: "run_shell_command", arguments: { command: input.command } };
    case "Write":
      return {
        name: "write_file",
        arguments: { file_path: path(input.file_path), content: input.content },
      };
    case "Read":
      return { name: "read_file", arguments: { file_path: path(input.file_path) } };
    case "Edit":
      return {
        name: "edit",
        arguments: {
          file_path: path(input.file_path),
          old_string: input.old_string,
          new_string: input.new_string,
        },
      };
  }
}

/** The simulator script of a case in Qwen Code's tool names. */
export function qwenReplies(turns: readonly ModelTurn[], project: string): ScriptReply[] {
  return turns.map((t) => ({
    ...(t.text !== undefined ? { text: t.text } : {}),
    ...(t.calls ? { toolCalls: t.calls.map((c) => qwenCall(c, project)) } : {}),
  }));
}

/** The user settings that keep Qwen Code quiet and offline (no statistics, no update check). */
export const QWEN_USER_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  security: { auth: { selectedType: "openai" } },
  // Its background memory agent would send the model requests of its own after the turn.
  memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
};

/** Runs `c` through Qwen Code. */
export async function runQwenCase(c: CompatCase, qwen: PeerCommand): Promise<Observation> {
  const dirs = makeCaseDirs(c, "qwen");
  writeClaudeStyleSettings(dirs, ".qwen", c.hooks);
  mkdirSync(join(dirs.home, ".qwen"), { recursive: true });
  writeFileSync(
    join(dirs.home, ".qwen", "settings.json"),
    `${JSON.stringify(QWEN_USER_SETTINGS, null, 2)}\n`,
  );
  const sim = await startSimulator({ script: { replies: qwenReplies(c.turns, dirs.project) } });
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dirs.home,
      LANG: "C.UTF-8",
      // Qwen Code otherwise starts itself a second time (a child with a larger heap).
      QWEN_CODE_NO_RELAUNCH: "true",
    };
    // yolo: every tool runs without asking, as Keel's `--mode bypassPermissions`.
    const args = [
      ...qwen.args,
      c.prompt,
      "--output-format",
      "json",
      "--approval-mode",
      "yolo",
      "--auth-type",
      "openai",
      "--openai-base-url",
      sim.url,
      "--openai-api-key",
      "sk-test",
      "--model",
      "deepseek-v4-flash",
    ];
    const run = await spawnCollect(qwen.command, args, { cwd: dirs.project, env });
    const observed = chatObservation({
      run,
      dirs,
      requests: sim.requests,
      notes: run.stderr.trim() ? [`stderr: ${run.stderr.trim().slice(0, 300)}`] : [],
    });
    const answered = sim.requests.filter((r) => r.status === 200);
    return { ...observed, modelView: answered.map((r) => modelItemsFromQwen(r.messages)) };
  } finally {
    await sim.close();
  }
}
