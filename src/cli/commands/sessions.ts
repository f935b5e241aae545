/**
 * `keel sessions [--json] [--all]`: the saved sessions of this project (or of every project),
 * newest first, with what is needed to pick one to resume.
 */

import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { Command } from "commander";
import { sanitizeJson } from "../../base/index.js";
import { keelHomeFrom, listSessions, type SessionSummary } from "../../session/index.js";
import { displayPath, plural, TEXT_WIDTH, table, truncate } from "../format/text.js";
import { writeStderr, writeStdout } from "../stdout.js";
import { UserError } from "../user-error.js";

/** Options of `keel sessions`. */
export interface SessionsOptions {
  json?: boolean;
  all?: boolean;
  /** Project directory (default: the current directory). */
  cwd?: string;
}

/**
 * What `keel sessions` prints, given the sessions and the moment "now". Sessions without a
 * message (a `keel` started and quit before the first prompt) or without an answer (a run that
 * failed before the model replied) are left out: there is nothing to resume in them, and
 * `--continue` skips them too.
 */
export function renderSessions(
  all: readonly SessionSummary[],
  opts: { all: boolean; projectDir: string; now: number; width?: number },
): string[] {
  const sessions = all.filter((s) => s.messages > 0 && s.answered);
  // A run that failed before the model answered (no key, endpoint down, a refused prompt)
  // holds only its prompt: listing it buries the conversations worth resuming.
  const empty = all.filter((s) => s.messages === 0).length;
  const unanswered = all.length - sessions.length - empty;
  const hidden = [
    ...(empty > 0 ? [`${plural(empty, "session")} without a prompt`] : []),
    ...(unanswered > 0 ? [`${plural(unanswered, "session")} without an answer`] : []),
  ];
  const emptyNote =
    hidden.length === 0 ? [] : [`(${hidden.join(", ")} not shown; --json lists them)`];
  if (sessions.length === 0) {
    return [
      opts.all
        ? 'No sessions yet. Start one with `keel` or `keel run "<prompt>"`.'
        : `No sessions yet for ${projectLabel(opts.projectDir)}. Start one with \`keel\` or \`keel run "<prompt>"\`.`,
      ...emptyNote,
    ];
  }
  const width = opts.width ?? TEXT_WIDTH;
  const ids = shortIds(sessions.map((s) => s.id));
  const header = ["ID", "STARTED", "UPDATED", "MSGS"];
  if (opts.all) header.push("PROJECT");
  const rows = sessions.map((s, i) => {
    const row = [
      ids[i] ?? s.id,
      formatLocalTime(s.createdAt),
      relativeTime(s.updatedAt, opts.now),
      String(s.messages),
    ];
    if (opts.all) row.push(displayPath(s.projectDir, { base: opts.projectDir }));
    return row;
  });
  // The prompt preview takes whatever width the other columns leave.
  const used = table([header, ...rows]).reduce((max, line) => Math.max(max, line.length), 0);
  const previewWidth = Math.max(20, width - used - 2);
  // A title a hook gave the session (sessionTitle) stands in for the first prompt.
  const titled = sessions.some((s) => s.title !== undefined);
  header.push(titled ? "TITLE / FIRST PROMPT" : "FIRST PROMPT");
  rows.forEach((row, i) => {
    const prompt = sessions[i]?.title ?? sessions[i]?.firstPrompt ?? "";
    row.push(prompt === "" ? "(no prompt)" : truncate(prompt, previewWidth));
  });
  const scope = opts.all ? "all projects" : projectLabel(opts.projectDir);
  return [
    `${plural(sessions.length, "session")} (${scope}), newest first:`,
    ...table([header, ...rows]),
    ...emptyNote,
    "",
    "Resume one with: keel --resume <ID>   (the latest: keel --continue)",
    'Without the TUI:  keel run --resume <ID> "<prompt>"   (or keel run --continue "<prompt>")',
  ];
}

/** A project directory as the user knows it: `~/…` under the home directory, else absolute. */
function projectLabel(dir: string): string {
  const rel = relative(homedir(), dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? `~${sep}${rel}` : dir;
}

/** The JSON of `keel sessions --json`: one object per session, newest first. */
export function sessionsJson(sessions: readonly SessionSummary[]): unknown[] {
  return sessions.map((s) => ({
    id: s.id,
    projectDir: s.projectDir,
    path: s.path,
    model: s.model,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    messages: s.messages,
    answered: s.answered,
    firstPrompt: s.firstPrompt,
    ...(s.title !== undefined ? { title: s.title } : {}),
  }));
}

/** Runs `keel sessions`; returns the text to print. */
export async function runSessions(
  opts: SessionsOptions,
  env: { keelHome?: string; now?: number; warn?: (line: string) => void } = {},
): Promise<string> {
  const projectDir = resolve(opts.cwd ?? process.cwd());
  if (opts.cwd !== undefined) {
    const info = await stat(projectDir).catch(() => null);
    if (!info?.isDirectory()) throw new UserError(`--cwd: not a directory: ${projectDir}`);
  }
  const keelHome = env.keelHome ?? keelHomeFrom();
  const all = opts.all === true;
  // A file that cannot be read is not listed, but said: it may be the conversation looked for.
  const warn = env.warn ?? ((line: string) => writeStderr(`${line}\n`));
  const onUnreadable = (u: { reason: string }) => warn(`keel: ${u.reason}; not listed`);
  const sessions = listSessions(
    all ? { keelHome, onUnreadable } : { keelHome, projectDir, onUnreadable },
  );
  if (opts.json === true) return `${sanitizeJson(sessionsJson(sessions), 2)}\n`;
  const lines = renderSessions(sessions, { all, projectDir, now: env.now ?? Date.now() });
  return `${lines.join("\n")}\n`;
}

/** Registers `keel sessions`. */
export function register(program: Command): void {
  program
    .command("sessions")
    .description("List saved sessions of this project, newest first")
    .option("--all", "list the sessions of every project")
    .option("--json", "print JSON")
    .option("--cwd <dir>", "project directory (default: the current directory)")
    .action(async (opts: SessionsOptions) => {
      writeStdout(await runSessions(opts));
    });
}

/** The shortest prefixes (at least 8 characters) that tell the ids apart. */
export function shortIds(ids: readonly string[]): string[] {
  return ids.map((id) => {
    for (let n = 8; n < id.length; n++) {
      const prefix = id.slice(0, n);
      if (ids.every((other) => other === id || !other.startsWith(prefix))) return prefix;
    }
    return id;
  });
}

/** `2026-05-01 14:03` in local time (the ISO text itself when it does not parse). */
export function formatLocalTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `just now`, `5 min ago`, `3 h ago`, `2 days ago`, then the local date and time. */
export function relativeTime(iso: string, now: number): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${plural(days, "day")} ago`;
  return formatLocalTime(iso);
}
