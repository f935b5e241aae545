/**
 * Runs one `compat:codex` case through the real `codex exec` (against the Responses API
 * simulator, responses-sim.ts) and through Keel (`bin/keel.js run` against Keel's DeepSeek
 * simulator), each with the case's recording hooks in the project's `.codex/hooks.json`.
 *
 * How `codex exec` is started headless and offline: headless.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "../src/sim/index.js";
import type { CodexCase, CodexTurn } from "./codex-cases.js";
import { codexHeadless } from "./headless.js";
import { resultText } from "./observation.js";
import {
  type CaseDirs,
  claudeSettings,
  makeCaseDirs,
  projectFiles,
  readRecords,
} from "./project.js";
import { type ResponsesItem, startResponsesSim } from "./responses-sim.js";
import { type PeerCommand, spawnCollect } from "./run-claude.js";
import type { HookRecord } from "./types.js";

const KEEL_BIN = fileURLToPath(new URL("../bin/keel.js", import.meta.url));

/** What one side showed: the hooks' recordings, the project afterwards, the final answer. */
export interface CodexObservation {
  hooks: HookRecord[];
  files: Record<string, string>;
  result: string;
  exitCode: number;
  paths: { root: string; project: string; home: string };
  notes: string[];
}

/** The Codex model output of a turn. */
export function codexItems(t: CodexTurn): ResponsesItem[] {
  if (t.shell !== undefined) {
    return [{ type: "function_call", name: "exec_command", arguments: { cmd: t.shell } }];
  }
  if (t.write) {
    const plus = t.write.content
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `+${l}\n`)
      .join("");
    const input = `*** Begin Patch\n*** Add File: ${t.write.path}\n${plus}*** End Patch\n`;
    return [{ type: "custom_tool_call", name: "apply_patch", input }];
  }
  if (t.edit) {
    const input = `*** Begin Patch\n*** Update File: ${t.edit.path}\n@@\n-${t.edit.old}\n+${t.edit.new}\n*** End Patch\n`;
    return [{ type: "custom_tool_call", name: "apply_patch", input }];
  }
  return [{ type: "message", text: t.text ?? "" }];
}

/** Keel's equivalent of a turn. */
export function keelReply(t: CodexTurn) {
  if (t.shell !== undefined) {
    return { toolCalls: [{ name: "shell", arguments: { command: t.shell } }] };
  }
  if (t.write) {
    return { toolCalls: [{ name: "write_file", arguments: { ...t.write } }] };
  }
  if (t.edit) {
    const { path, old: old_string, new: new_string } = t.edit;
    return { toolCalls: [{ name: "edit_file", arguments: { path, old_string, new_string } }] };
  }
  return { text: t.text ?? "" };
}

function dirsFor(c: CodexCase, label: string): CaseDirs {
  const dirs = makeCaseDirs({ name: c.name, prompt: c.prompt, hooks: c.hooks, turns: [] }, label);
  mkdirSync(join(dirs.project, ".codex"), { recursive: true });
  writeFileSync(
    join(dirs.project, ".codex", "hooks.json"),
    `${JSON.stringify(claudeSettings(dirs, c.hooks, "s"), null, 2)}\n`,
  );
  return dirs;
}

/** Project files, without the agents' own folders. */
function files(dirs: CaseDirs): Record<string, string> {
  return Object.fromEntries(
    Object.entries(projectFiles(dirs)).filter(([p]) => !/^\.(codex|git|keel)\//.test(p)),
  );
}

/** The last agent message of `codex exec --json`'s event lines. */
function codexResult(stdout: string): string {
  let last = "";
  for (const line of stdout.split("\n")) {
    try {
      const e = JSON.parse(line) as { type?: string; item?: { type?: string; text?: string } };
      if (e.type === "item.completed" && e.item?.type === "agent_message") last = e.item.text ?? "";
    } catch {
      // not an event line
    }
  }
  return last;
}

/** Runs `c` through the real codex. */
export async function runCodexCase(c: CodexCase, codex: PeerCommand): Promise<CodexObservation> {
  const dirs = dirsFor(c, "codex");
  const sim = await startResponsesSim(c.turns.map((t) => ({ items: codexItems(t) })));
  try {
    const start = codexHeadless({
      simUrl: sim.url,
      home: dirs.home,
      project: dirs.project,
      prompt: c.prompt,
    });
    const env = start.env;
    const args = [...codex.args, ...start.args];
    const run = await spawnCollect(codex.command, args, { cwd: dirs.project, env });
    const stderr = run.stderr
      .split("\n")
      .filter((l) => l.trim() && !/PATH aliases|Reading additional input/.test(l));
    return {
      hooks: readRecords(dirs),
      files: files(dirs),
      result: codexResult(run.stdout),
      exitCode: run.code,
      paths: { root: dirs.root, project: dirs.project, home: dirs.home },
      notes: stderr.length > 0 ? [`stderr: ${stderr.join(" | ").slice(0, 300)}`] : [],
    };
  } finally {
    await sim.close();
  }
}

/** Runs `c` through Keel with the same `.codex/hooks.json`. */
export async function runKeelCodexCase(c: CodexCase): Promise<CodexObservation> {
  const dirs = dirsFor(c, "keel");
  const keelHome = join(dirs.home, ".keel");
  mkdirSync(keelHome, { recursive: true });
  const sim = await startSimulator({ script: { replies: c.turns.map(keelReply) } });
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
    const run = await spawnCollect(
      process.execPath,
      [KEEL_BIN, "run", c.prompt, "--output-format", "json", "--mode", "bypassPermissions"],
      opts,
    );
    return {
      hooks: readRecords(dirs),
      files: files(dirs),
      result: resultText(run.stdout),
      exitCode: run.code,
      paths: { root: dirs.root, project: dirs.project, home: dirs.home },
      notes: run.stderr.trim() ? [...notes, `stderr: ${run.stderr.trim().slice(0, 300)}`] : notes,
    };
  } finally {
    await sim.close();
  }
}
