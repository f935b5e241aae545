/**
 * The shell tool's directory report (src/tools/shell-cwd.ts): the wrapper runs a command as
 * `sh -c` would (no positional parameters, the same exit status), reports where it ended, and
 * only a directory inside the project (links followed) counts.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createShellTool } from "../../src/tools/shell.js";
import { checkedCwd } from "../../src/tools/shell-cwd.js";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-shell-cwd-")));
  made.push(root);
  const dir = join(root, "project");
  mkdirSync(join(dir, "sub", "deeper"), { recursive: true });
  mkdirSync(join(root, "outside"));
  symlinkSync(join(root, "outside"), join(dir, "out"));
  symlinkSync(join(dir, "sub", "deeper"), join(dir, "inner"));
  return dir;
}

const run = (dir: string, command: string, cwd?: string) =>
  createShellTool({ cwd: dir }).run(
    { command },
    { signal: new AbortController().signal, ...(cwd ? { cwd } : {}) },
  );

describe("the shell's directory between calls", () => {
  it("reports where a command ended, and runs it as sh -c would", async () => {
    const dir = project();
    const r = await run(dir, 'cd sub; echo "args:$#:$1"; exit_code() { return 3; }; exit_code');
    expect(r.cwd).toBe(join(dir, "sub"));
    expect(r.content).toContain("args:0:");
    expect(r.content).toContain("[exit code: 3]");
    const next = await run(dir, "pwd", r.cwd);
    expect(next.content.split("\n")[0]).toBe(join(dir, "sub"));
  });

  it("a command that exits keeps the directory it started in", async () => {
    const dir = project();
    const r = await run(dir, "cd deeper; exit 0", join(dir, "sub"));
    expect(r.cwd).toBe(join(dir, "sub"));
  });

  it("out of the project, through a link out, or a directory gone: back at the project", async () => {
    const dir = project();
    for (const [command, from] of [
      ["cd ..", undefined],
      ["cd out", undefined],
      ["cd /", join(dir, "sub")],
    ] as const) {
      const r = await run(dir, command, from);
      expect(r.cwd, command).toBe(dir);
      expect(r.content, command).toContain(`Shell cwd was reset to ${dir}`);
    }
    const gone = await run(dir, "pwd", join(dir, "no-such"));
    expect(gone.cwd).toBe(dir);
    expect(gone.content).toContain(`Shell cwd was reset to ${dir}`);
  });

  it("a link to a folder inside the project is kept; a forged report outside is not", () => {
    const dir = project();
    expect(checkedCwd(dir, join(dir, "inner"))).toEqual({ cwd: join(dir, "inner"), reset: false });
    expect(checkedCwd(dir, "/etc")).toEqual({ cwd: dir, reset: true });
    expect(checkedCwd(dir, "relative/path")).toEqual({ cwd: dir, reset: true });
  });
});
