/**
 * Runs one case through the real Reasonix (`reasonix -p --output-format json`) against Keel's
 * DeepSeek simulator (a `[[providers]]` entry of kind "openai" in its config.toml), with the
 * case's hooks in `.reasonix/settings.json`, and returns what its hooks and its model observed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startSimulator } from "../src/sim/index.js";
import type { ScriptReply } from "../src/sim/script.js";
import { chatObservation } from "./observation.js";
import { makeCaseDirs, writeReasonixSettings } from "./project.js";
import { type PeerCommand, spawnCollect } from "./run-claude.js";
import type { CompatCase, ModelCall, ModelTurn, Observation } from "./types.js";

/** Reasonix 1.x's tool call equivalent to a Claude call (its tools: bash, write_file, …). */
export function reasonixCall(call: ModelCall, project: string) {
  const input = call.input;
  const path = (v: unknown) =>
    typeof v === "string" ? relative(project, v.replaceAll("$PROJECT", project)) : v;
  switch (call.tool) {
    case "Bash":
      return { name: "bash", arguments: { command: input.command } };
    case "Write":
      return {
        name: "write_file",
        arguments: { path: path(input.file_path), content: input.content },
      };
    case "Read":
      return { name: "read_file", arguments: { path: path(input.file_path) } };
    case "Edit":
      return {
        name: "edit_file",
        arguments: {
          path: path(input.file_path),
          old_string: input.old_string,
          new_string: input.new_string,
        },
      };
  }
}

function reasonixReplies(turns: readonly ModelTurn[], project: string): ScriptReply[] {
  return turns.map((t) => ({
    ...(t.text !== undefined ? { text: t.text } : {}),
    ...(t.calls ? { toolCalls: t.calls.map((c) => reasonixCall(c, project)) } : {}),
  }));
}

/** Runs `c` through Reasonix. */
export async function runReasonixCase(c: CompatCase, reasonix: PeerCommand): Promise<Observation> {
  const dirs = makeCaseDirs(c, "reasonix");
  writeReasonixSettings(dirs, c.hooks);
  const sim = await startSimulator({
    script: { replies: reasonixReplies(c.turns, dirs.project) },
  });
  try {
    const rhome = join(dirs.home, ".reasonix");
    mkdirSync(rhome, { recursive: true });
    writeFileSync(
      join(rhome, "config.toml"),
      [
        'default_model = "sim"',
        "",
        "[[providers]]",
        'name = "sim"',
        'kind = "openai"',
        `base_url = "${sim.url}"`,
        'model = "deepseek-v4-flash"',
        'api_key_env = "SIM_API_KEY"',
        'thinking = "disabled"',
        "",
      ].join("\n"),
    );
    // Reasonix reads provider keys from the .env beside its config.
    writeFileSync(join(rhome, ".env"), "SIM_API_KEY=sk-test\n", { mode: 0o600 });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dirs.home,
      LANG: "C.UTF-8",
      REASONIX_HOME: rhome,
    };
    // danger-full-access: its shell runs without bubblewrap, as Keel's `--mode bypassPermissions`.
    const args = [
      ...reasonix.args,
      "-p",
      c.prompt,
      "--output-format",
      "json",
      "--permission-mode",
      "danger-full-access",
    ];
    const run = await spawnCollect(reasonix.command, args, { cwd: dirs.project, env });
    return chatObservation({
      run,
      dirs,
      requests: sim.requests,
      notes: run.stderr.trim() ? [`stderr: ${run.stderr.trim().slice(0, 300)}`] : [],
    });
  } finally {
    await sim.close();
  }
}
