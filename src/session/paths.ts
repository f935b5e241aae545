/**
 * Where Keel keeps its state. Sessions live in one folder per project:
 * `$KEEL_HOME/sessions/<basename>-<sha256(projectDir)[0..12]>/<id>.jsonl`, with the hook audit of
 * the session beside it as `<id>.hooks.jsonl`. The folder name finds a project's sessions without
 * an index file (nothing to get out of step); the first line of each file names the project too.
 */
import { createHash } from "node:crypto";
import { basename, join, resolve } from "node:path";
import { resolveKeelHome } from "../base/index.js";

/** `$KEEL_HOME` (made absolute), else `~/.keel`: the one resolver the sandbox uses too. */
export function keelHomeFrom(env: NodeJS.ProcessEnv = process.env): string {
  return resolveKeelHome(env);
}

/** The folder holding every project's session folders. */
export function sessionsRoot(keelHome: string): string {
  return join(keelHome, "sessions");
}

/** The folder name of one project: readable, and unique by the hash of its absolute path. */
export function projectKey(projectDir: string): string {
  const abs = resolve(projectDir);
  const name =
    basename(abs)
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .slice(0, 40) || "root";
  const hash = createHash("sha256").update(abs).digest("hex").slice(0, 12);
  return `${name}-${hash}`;
}

/** The folder holding one project's sessions. */
export function projectSessionsDir(keelHome: string, projectDir: string): string {
  return join(sessionsRoot(keelHome), projectKey(projectDir));
}

/** The session's hook audit file, beside its transcript. */
export function hooksPathFor(sessionPath: string): string {
  return sessionPath.replace(/\.jsonl$/, ".hooks.jsonl");
}

/** The global usage log. */
export function usageLogPath(keelHome: string): string {
  return join(keelHome, "usage.jsonl");
}

/** The global hook audit log. */
export function hookAuditPath(keelHome: string): string {
  return join(keelHome, "hooks-audit.jsonl");
}
