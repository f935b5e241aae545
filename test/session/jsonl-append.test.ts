import { mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendJsonLine } from "../../src/session/jsonl.js";

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), "keel-jsonl-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("appendJsonLine keeps its logs open", () => {
  it("appends line after line to a private file in a folder it creates", () => {
    const path = join(fresh(), "a/b/log.jsonl");
    appendJsonLine(path, { n: 1 });
    appendJsonLine(path, { n: 2 });
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("starts a new file when the log was removed or moved away by hand", () => {
    const dir = fresh();
    const path = join(dir, "log.jsonl");
    appendJsonLine(path, { n: 1 });
    renameSync(path, join(dir, "old.jsonl"));
    appendJsonLine(path, { n: 2 });
    expect(readFileSync(path, "utf8")).toBe('{"n":2}\n');
    expect(readFileSync(join(dir, "old.jsonl"), "utf8")).toBe('{"n":1}\n');
    rmSync(dir, { recursive: true, force: true });
    appendJsonLine(path, { n: 3 });
    expect(readFileSync(path, "utf8")).toBe('{"n":3}\n');
  });
});
