/** Finding sessions: per project or all, the latest, by unique id prefix; loading and resuming. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { withoutAddedContext } from "./added-context.js";
import { type LoadedSession, readSessionFile, SessionError } from "./load.js";
import { projectSessionsDir, sessionsRoot } from "./paths.js";
import { SESSION_TITLE_EVENT } from "./records.js";
import { reopenSession, type SessionHandle, type SessionWriteOptions } from "./store.js";

const PREVIEW_CHARS = 80;

/** One line of `keel sessions`. */
export interface SessionSummary {
  id: string;
  projectDir: string;
  path: string;
  model: string;
  createdAt: string;
  /** Last write (file modification time), ISO. */
  updatedAt: string;
  messages: number;
  /** Whether the model answered at least once (an assistant message): a run that failed before
   *  any answer (no key, endpoint down, refused) holds only its prompt and nothing to go on from. */
  answered: boolean;
  /** The first prompt (the first user message without hook context), one line, cut to 80 characters ("" when none yet). */
  firstPrompt: string;
  /** The title a UserPromptSubmit hook gave the session (`sessionTitle`), if any. */
  title?: string;
}

/** A session file that could not be read at all (no session line at the top, unreadable). */
export interface UnreadableSession {
  path: string;
  /** Last write (file modification time), ISO; "" when even that is unknown. */
  updatedAt: string;
  reason: string;
}

/** Session files under the sessions root, one project's or all. */
function sessionFiles(keelHome: string, projectDir?: string): string[] {
  const dirs = projectDir
    ? [projectSessionsDir(keelHome, resolve(projectDir))]
    : listDir(sessionsRoot(keelHome)).map((d) => join(sessionsRoot(keelHome), d));
  return dirs.flatMap((dir) =>
    listDir(dir)
      .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".hooks.jsonl"))
      .map((f) => join(dir, f)),
  );
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Summaries, newest update first. A file that cannot be read is left out of the list and told
 * to `onUnreadable`, so callers can say so instead of losing a session without a word.
 */
export function listSessions(opts: {
  keelHome: string;
  projectDir?: string;
  onUnreadable?: (file: UnreadableSession) => void;
}): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (const path of sessionFiles(opts.keelHome, opts.projectDir)) {
    let session: LoadedSession;
    try {
      session = readSessionFile(path);
    } catch (err) {
      opts.onUnreadable?.({ path, updatedAt: mtimeIso(path), reason: unreadableReason(path, err) });
      continue;
    }
    if (opts.projectDir && session.meta.projectDir !== resolve(opts.projectDir)) continue;
    out.push({
      id: session.meta.id,
      projectDir: session.meta.projectDir,
      path,
      model: session.meta.model,
      createdAt: session.meta.createdAt,
      updatedAt: new Date(statSync(path).mtimeMs).toISOString(),
      messages: session.messages.length,
      answered: session.messages.some(isAssistant),
      firstPrompt: firstPrompt(session.messages),
      ...titleOf(session),
    });
  }
  return out.sort((a, b) =>
    a.updatedAt === b.updatedAt
      ? b.createdAt.localeCompare(a.createdAt)
      : b.updatedAt.localeCompare(a.updatedAt),
  );
}

/**
 * The project's most recently updated session that holds a conversation (`--continue`), or
 * null. A session with no messages yet (its only prompt was blocked by a hook, or it was
 * opened and left) or no answer (its run failed before the model replied: no key, endpoint
 * down) has nothing to continue, so an earlier one is taken, as `keel sessions` lists it. Session files newer
 * than the one taken that cannot be read go to `onUnreadable`: the user meant to continue
 * those, and must hear that an older conversation is continued instead.
 */
export function latestSession(opts: {
  keelHome: string;
  projectDir: string;
  onUnreadable?: (file: UnreadableSession) => void;
}): SessionSummary | null {
  const unreadable: UnreadableSession[] = [];
  const found =
    listSessions({ ...opts, onUnreadable: (u) => unreadable.push(u) }).find(
      (s) => s.messages > 0 && s.answered,
    ) ?? null;
  for (const u of unreadable) if (!found || u.updatedAt > found.updatedAt) opts.onUnreadable?.(u);
  return found;
}

function mtimeIso(path: string): string {
  try {
    return new Date(statSync(path).mtimeMs).toISOString();
  } catch {
    return "";
  }
}

function unreadableReason(path: string, err: unknown): string {
  if (err instanceof SessionError) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  return `${path} cannot be read (${code ?? (err instanceof Error ? err.message : String(err))})`;
}

/** Finds a session by full id or unique prefix. */
export function resolveSessionId(opts: {
  keelHome: string;
  id: string;
  projectDir?: string;
}): { ok: true; id: string; path: string } | { ok: false; error: string } {
  const want = opts.id.trim();
  if (want === "") return { ok: false, error: "no session id given" };
  const matches = sessionFiles(opts.keelHome, opts.projectDir)
    .map((path) => ({ path, id: (path.split("/").at(-1) ?? "").replace(/\.jsonl$/, "") }))
    .filter((s) => s.id.startsWith(want));
  const exact = matches.find((s) => s.id === want);
  if (exact) return { ok: true, ...exact };
  const [only, ...rest] = matches;
  if (!only) return { ok: false, error: `no session matches "${want}" (see \`keel sessions\`)` };
  if (rest.length > 0) {
    const ids = matches.map((s) => s.id).sort();
    return {
      ok: false,
      error: `"${want}" matches ${ids.length} sessions (${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}); give more of the id`,
    };
  }
  return { ok: true, ...only };
}

/** Loads a session by id or unique prefix. Throws SessionError when none or several match. */
export function loadSession(opts: { keelHome: string; id: string }): LoadedSession {
  const found = resolveSessionId(opts);
  if (!found.ok) throw new SessionError(found.error);
  if (!existsSync(found.path)) throw new SessionError(`session file ${found.path} is gone`);
  return readSessionFile(found.path);
}

/** Loads a session and reopens it for appending (resume). Throws SessionError like loadSession. */
export function openSession(opts: SessionWriteOptions & { id: string }): {
  session: LoadedSession;
  handle: SessionHandle;
} {
  const session = loadSession(opts);
  const handle = reopenSession({ ...opts, path: session.path, meta: session.meta });
  return { session, handle };
}

/** The last title event's title, as `{title}`, or nothing. */
function titleOf(session: LoadedSession): { title?: string } {
  const last = session.events.filter((e) => e.kind === SESSION_TITLE_EVENT).at(-1);
  const title = last?.data.title;
  return typeof title === "string" && title.trim() !== "" ? { title: title.trim() } : {};
}

function isAssistant(rendered: string): boolean {
  try {
    const value: unknown = JSON.parse(rendered);
    return (
      typeof value === "object" && value !== null && Reflect.get(value, "role") === "assistant"
    );
  } catch {
    return false;
  }
}

function firstPrompt(messages: readonly string[]): string {
  for (const rendered of messages) {
    let value: unknown;
    try {
      value = JSON.parse(rendered);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (Reflect.get(value, "role") !== "user") continue;
    const content = Reflect.get(value, "content");
    if (typeof content !== "string") continue;
    const line = withoutAddedContext(content).replace(/\s+/g, " ");
    if (line === "") continue;
    return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
  }
  return "";
}
