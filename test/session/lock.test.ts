import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockPathFor, lockSessionFile, SessionLockedError } from "../../src/session/lock.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "keel-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited (a crashed writer). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(r.stdout.toString());
}

describe("session file lock", () => {
  it("a lock held by another live process is refused with a clear error naming it", () => {
    const path = join(dir, "abcdef12-x.jsonl");
    writeFileSync(
      lockPathFor(path),
      JSON.stringify({ pid: process.ppid, host: hostname(), nonce: "n", since: "then" }),
    );
    expect(() => lockSessionFile(path, "abcdef12-x")).toThrow(SessionLockedError);
    expect(() => lockSessionFile(path, "abcdef12-x")).toThrow(
      new RegExp(`session abcdef12 is in use by Keel process ${process.ppid}`),
    );
  });

  it("is 0600, counted within one process (the TUI's /model reopen), removed at the last release", () => {
    const path = join(dir, "s.jsonl");
    const a = lockSessionFile(path, "s");
    expect(statSync(lockPathFor(path)).mode & 0o777).toBe(0o600);
    const b = lockSessionFile(path, "s");
    a.release();
    a.release();
    expect(existsSync(lockPathFor(path))).toBe(true);
    b.release();
    expect(existsSync(lockPathFor(path))).toBe(false);
  });

  it("takes over a stale lock whose process is gone", () => {
    const path = join(dir, "s.jsonl");
    const pid = deadPid();
    writeFileSync(
      lockPathFor(path),
      JSON.stringify({ pid, host: hostname(), nonce: "old", since: "then" }),
    );
    const lock = lockSessionFile(path, "s");
    expect(JSON.parse(readFileSync(lockPathFor(path), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("does not take over a lock held on another host, or an unreadable one", () => {
    const path = join(dir, "s.jsonl");
    writeFileSync(
      lockPathFor(path),
      JSON.stringify({ pid: deadPid(), host: "elsewhere", nonce: "n", since: "then" }),
    );
    expect(() => lockSessionFile(path, "s")).toThrow(/on elsewhere/);
    writeFileSync(lockPathFor(path), "{");
    expect(() => lockSessionFile(path, "s")).toThrow(/another Keel process/);
  });
});
