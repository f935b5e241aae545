/**
 * A throw-away project for one case and one agent: the recording hook script, the hook
 * settings, the seed files, and reading back what the hooks recorded.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { CompatCase, HookRecord, HookSpec } from "./types.js";

/** Environment variables the recordings keep (a hook may read them). */
export const RECORDED_ENV = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_ENV_FILE",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_EFFORT",
  "QWEN_PROJECT_DIR",
  "GEMINI_PROJECT_DIR",
] as const;

/** A case's folders: the project, a HOME, and the recording area outside the project. */
export interface CaseDirs {
  root: string;
  project: string;
  home: string;
  rec: string;
}

/** Creates the folders, the hook script and the seed files. */
export function makeCaseDirs(c: CompatCase, label: string): CaseDirs {
  const root = mkdtempSync(join(tmpdir(), `compat-${label}-`));
  const dirs = {
    root,
    project: join(root, "project"),
    home: join(root, "home"),
    rec: join(root, "rec"),
  };
  for (const d of [dirs.project, dirs.home, dirs.rec, join(root, "answers")]) {
    mkdirSync(d, { recursive: true });
  }
  for (const [path, content] of Object.entries(c.files ?? {})) {
    mkdirSync(join(dirs.project, path, ".."), { recursive: true });
    writeFileSync(join(dirs.project, path), content);
  }
  const script = join(root, "hook.sh");
  // The hook id is the only argument; payload text never reaches a command line.
  writeFileSync(
    script,
    [
      "#!/bin/sh",
      `base='${root}'`,
      "n=$(date +%s%N)",
      'P="$base/rec/$n-$1.json"',
      'cat > "$P"',
      'env -0 > "$base/rec/$n-$1.env"',
      'if [ -f "$base/answers/$1.sh" ]; then . "$base/answers/$1.sh"; fi',
      "exit 0",
      "",
    ].join("\n"),
  );
  chmodSync(script, 0o755);
  for (const h of c.hooks) writeFileSync(join(root, "answers", `${h.id}.sh`), h.answer ?? "");
  return dirs;
}

/** The command a settings file runs for one hook. */
export function hookCommand(dirs: CaseDirs, hook: HookSpec): string {
  return `${join(dirs.root, "hook.sh")} ${hook.id}`;
}

/**
 * Claude Code's settings object for the case's hooks (one matcher group per hook).
 * `timeoutUnit` is how the agent reads `timeout` (Qwen Code: milliseconds).
 */
export function claudeSettings(
  dirs: CaseDirs,
  hooks: readonly HookSpec[],
  timeoutUnit: "s" | "ms" = "s",
): object {
  const byEvent: Record<string, object[]> = {};
  const named = new Map<string, { hooks: object[]; [field: string]: unknown }>();
  for (const h of hooks) {
    const handler: Record<string, unknown> = { type: "command", command: hookCommand(dirs, h) };
    if (h.timeout !== undefined) {
      handler.timeout = timeoutUnit === "ms" ? h.timeout * 1000 : h.timeout;
    }
    const shared = h.group !== undefined ? named.get(`${h.event}/${h.group}`) : undefined;
    if (shared) {
      shared.hooks.push(handler);
      if (h.sequential) shared.sequential = true;
      continue;
    }
    const group: { hooks: object[]; [field: string]: unknown } = { hooks: [handler] };
    if (h.matcher !== undefined) group.matcher = h.matcher;
    if (h.sequential) group.sequential = true;
    if (h.group !== undefined) named.set(`${h.event}/${h.group}`, group);
    const list = byEvent[h.event] ?? [];
    list.push(group);
    byEvent[h.event] = list;
  }
  return { hooks: byEvent };
}

/** Writes `.claude/settings.json` into the project. */
export function writeClaudeSettings(dirs: CaseDirs, hooks: readonly HookSpec[]): void {
  writeClaudeStyleSettings(dirs, ".claude", hooks);
}

/** Writes Claude-style settings into `<folder>/settings.json` (`.claude`, `.qwen`). */
export function writeClaudeStyleSettings(
  dirs: CaseDirs,
  folder: ".claude" | ".qwen" | ".gemini",
  hooks: readonly HookSpec[],
): void {
  mkdirSync(join(dirs.project, folder), { recursive: true });
  writeFileSync(
    join(dirs.project, folder, "settings.json"),
    `${JSON.stringify(claudeSettings(dirs, hooks, folder === ".claude" ? "s" : "ms"), null, 2)}\n`,
  );
}

/** Reasonix's settings object for the case's hooks (flat `{match, command}` entries). */
export function reasonixSettings(dirs: CaseDirs, hooks: readonly HookSpec[]): object {
  const byEvent: Record<string, object[]> = {};
  for (const h of hooks) {
    const entry: Record<string, unknown> = { command: hookCommand(dirs, h) };
    if (h.matcher !== undefined) entry.match = h.matcher;
    // Reasonix timeouts are milliseconds.
    if (h.timeout !== undefined) entry.timeout = h.timeout * 1000;
    const list = byEvent[h.event] ?? [];
    list.push(entry);
    byEvent[h.event] = list;
  }
  return { hooks: byEvent };
}

/** Writes `.reasonix/settings.json` into the project. */
export function writeReasonixSettings(dirs: CaseDirs, hooks: readonly HookSpec[]): void {
  mkdirSync(join(dirs.project, ".reasonix"), { recursive: true });
  writeFileSync(
    join(dirs.project, ".reasonix", "settings.json"),
    `${JSON.stringify(reasonixSettings(dirs, hooks), null, 2)}\n`,
  );
}

/** The harness's own settings for the peer processes: not hook variables. */
const HARNESS_ENV = new Set([
  "REASONIX_HOME",
  "QWEN_CODE_NO_RELAUNCH",
  "GEMINI_API_KEY",
  "GEMINI_CLI_TRUST_WORKSPACE",
  "GEMINI_CLI_NO_RELAUNCH",
]);

/** Whether an environment variable is kept in the recordings. */
function recordedEnv(key: string): boolean {
  if (HARNESS_ENV.has(key)) return false;
  return (RECORDED_ENV as readonly string[]).includes(key) || /^(REASONIX|QWEN|GEMINI)_/.test(key);
}

/** The hook recordings in the order the hooks ran. */
export function readRecords(dirs: CaseDirs): HookRecord[] {
  const names = readdirSync(dirs.rec)
    .filter((f) => f.endsWith(".json"))
    .sort((a, b) => {
      const na = BigInt(a.split("-")[0] ?? "0");
      const nb = BigInt(b.split("-")[0] ?? "0");
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
  return names.map((name) => {
    const id = name.slice(name.indexOf("-") + 1, -".json".length);
    const text = readFileSync(join(dirs.rec, name), "utf8");
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(text) as Record<string, unknown>;
    } catch {
      payload = { unparsable: text };
    }
    const env: Record<string, string> = {};
    const envText = readFileSync(join(dirs.rec, name.replace(/\.json$/, ".env")), "utf8");
    for (const entry of envText.split("\0")) {
      const eq = entry.indexOf("=");
      const key = entry.slice(0, eq);
      if (recordedEnv(key)) env[key] = entry.slice(eq + 1);
    }
    return { id, payload, env };
  });
}

/** The agents' own folders in a project: never compared. */
const AGENT_FOLDERS = new Set([".claude", ".keel", ".reasonix", ".qwen", ".gemini"]);

/** Project files after the run, skipping the agents' own folders. */
export function projectFiles(dirs: CaseDirs): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (AGENT_FOLDERS.has(e.name)) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out[relative(dirs.project, full)] = readFileSync(full, "utf8");
    }
  };
  walk(dirs.project);
  return out;
}
