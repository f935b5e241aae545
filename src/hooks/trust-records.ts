/**
 * A trust record file: `{ "version": 1, "projects": { "<project dir>": "<sha256>" } }`, mode
 * 0600 under $KEEL_HOME. Three stores use this one format and this one reader and writer: project
 * hooks (trust.json), project MCP servers (mcp-trust.json) and project permission allow rules
 * (permissions-trust.json).
 *
 * A damaged file reads as "nothing trusted" (the safe reading), but is never written over: it
 * holds the trust of every other project, and replacing it with this project's one record would
 * lose them without a word. Writers take a lock file, so two Keel processes trusting at once
 * both land.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { isRecord, jsonProblemText } from "../base/index.js";

/** What a trust record file holds, or why it cannot be read. */
export type TrustRecords =
  | { ok: true; projects: Record<string, string> }
  | { ok: false; projects: Record<string, string>; problem: string };

/** Reads a trust record file. Missing: empty. Damaged: empty, with the problem in one line. */
export function readTrustRecords(path: string): TrustRecords {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: true, projects: {} };
    return { ok: false, projects: {}, problem: `${path}: cannot be read (${code ?? String(err)})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    const what = jsonProblemText(text) ?? "not valid JSON";
    return { ok: false, projects: {}, problem: `${path}: invalid JSON: ${what}` };
  }
  if (!isRecord(json) || json.version !== 1 || !isRecord(json.projects)) {
    return {
      ok: false,
      projects: {},
      problem: `${path}: not a Keel trust store (expected {"version": 1, "projects": {…}})`,
    };
  }
  const projects: Record<string, string> = {};
  for (const [dir, hash] of Object.entries(json.projects)) {
    if (typeof hash === "string") projects[dir] = hash;
  }
  return { ok: true, projects };
}

/** The error a write into a damaged store throws: names the file and what to do. */
export class DamagedTrustStoreError extends Error {
  constructor(problem: string) {
    super(
      `${problem}. Keel will not write over it: it may hold other projects' trust. ` +
        "Repair the file, or remove it to start with nothing trusted.",
    );
    this.name = "DamagedTrustStoreError";
  }
}

/**
 * Records (`hash`) or removes (`null`) one project's trust, keeping every other record. Written
 * atomically (temp file, rename), mode 0600, under a lock. Throws DamagedTrustStoreError when the
 * file exists but is not a trust store.
 */
export function writeTrustRecord(path: string, projectDir: string, hash: string | null): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  withLock(`${path}.lock`, () => {
    const current = readTrustRecords(path);
    if (!current.ok) throw new DamagedTrustStoreError(current.problem);
    const projects = current.projects;
    if (hash === null) delete projects[projectDir];
    else projects[projectDir] = hash;
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  });
}

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

function withLock(lockPath: string, body: () => void): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lockPath, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (lockAge(lockPath) > STALE_LOCK_MS) {
        try {
          unlinkSync(lockPath);
        } catch {
          // Another waiter removed it first.
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`${lockPath}: another Keel process holds this lock; try again`);
      }
      // A trust write takes a millisecond; a short synchronous pause keeps this path sync.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      continue;
    }
    try {
      body();
    } finally {
      closeSync(fd);
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone; nothing to release.
      }
    }
    return;
  }
}

function lockAge(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}
