/**
 * CLAUDE_ENV_FILE: SessionStart hooks append `export NAME=value` lines to a file; the
 * variables apply to the shell commands the agent runs afterwards, as in Claude Code. The file
 * is sourced by `sh` (so quoting and `$VAR` expansion mean what the hook meant) and only the
 * variables it changed are kept.
 *
 * Sourced in the environment the shell tool gets (the one builder, base/child-env.ts): without
 * Keel's secrets, so `export X="$DEEPSEEK_API_KEY"` yields an empty X. A value that still holds
 * a secret (a hook that read the key from elsewhere) is dropped, so no later command sees it.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildChildEnv, withoutSecretValues } from "../base/index.js";

/** Where a session's env file lives (Claude: `~/.claude/session-env/<session>/`). */
export function sessionEnvFilePath(keelHome: string, sessionId: string): string {
  return join(keelHome, "session-env", sessionId, "sessionstart-hook.sh");
}

/** Creates the (empty) file hooks append to, owner-only. Returns false when it cannot. */
export function prepareEnvFile(path: string): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, "", { mode: 0o600, flag: "a" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The variables the file sets or changes, relative to `base` with the secrets taken out (unless
 * `passSecrets`: the user's own settings pass the key). An empty or unreadable file, or a shell
 * that fails, gives none (never throws).
 */
export async function envFromFile(
  path: string,
  fullEnv: NodeJS.ProcessEnv,
  opts: { passSecrets?: boolean; apiKey?: string | null } = {},
): Promise<Record<string, string>> {
  const base = buildChildEnv(fullEnv, opts);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  if (text.trim() === "") return {};
  // The path is Keel's own, passed as an argument: no file content reaches a command line.
  const out = await new Promise<string | null>((resolve) => {
    const child = spawn("sh", ["-c", '. "$1" >/dev/null 2>&1; env -0', "sh", path], {
      env: base,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", () => resolve(null));
    child.on("close", (code) =>
      resolve(code === 0 ? Buffer.concat(chunks).toString("utf8") : null),
    );
  });
  if (out === null) return {};
  const env: Record<string, string> = {};
  for (const entry of out.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq <= 0) continue;
    const key = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    // sh sets a few of its own (PWD, SHLVL, _); only what the file changed is kept.
    if (["PWD", "OLDPWD", "SHLVL", "_"].includes(key)) continue;
    if (base[key] !== value) env[key] = value;
  }
  return opts.passSecrets === true ? env : withoutSecretValues(env, fullEnv, opts.apiKey);
}
