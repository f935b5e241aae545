/** Issue 8, attack 8: a catastrophic regex in grep must not pin the CPU, and signals stop a search. */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGrepTool } from "../../src/tools/grep.js";
import { NO_SIGNAL, tempDir } from "../tools/helpers.js";

const REPO = resolve(import.meta.dirname, "../..");
let project: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir();
});
afterEach(() => project.cleanup());

describe("grep with RE2", () => {
  it("^(a+)+$ on a long line answers (a backtracking engine would never return)", async () => {
    writeFileSync(join(project.dir, "evil.txt"), `${"a".repeat(200_000)}!\naaa\n`);
    const r = await createGrepTool({ cwd: project.dir }).run(
      { pattern: "^(a+)+$" },
      {
        signal: NO_SIGNAL,
      },
    );
    expect(r.isError).toBe(false);
    expect(r.content).toBe("evil.txt:2: aaa");
  });

  it("says what RE2 does not support", async () => {
    writeFileSync(join(project.dir, "a.txt"), "abab\n");
    const r = await createGrepTool({ cwd: project.dir }).run(
      { pattern: "(ab)\\1" },
      {
        signal: NO_SIGNAL,
      },
    );
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/RE2 syntax \(no backreferences or lookaround\)/);
  });

  it("an abort stops a long search", async () => {
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(project.dir, `f${i}.txt`), `${"x".repeat(999)}\n`.repeat(1000));
    }
    const ac = new AbortController();
    const pending = createGrepTool({ cwd: project.dir }).run(
      { pattern: "(x+x+)+y" },
      {
        signal: ac.signal,
      },
    );
    ac.abort();
    const r = await pending;
    expect(r.content).toBe("grep: interrupted by the user.");
  });
});

/**
 * A process that greps for a long time until a signal arrives. It runs the built grep tool
 * (`npm test` builds first), as `keel` does: compiling src/ through tsx cost each child ~1 s of
 * CPU more than the search it tests.
 */
const GREP_JS = join(REPO, "dist", "tools", "grep.js");
const CHILD = `
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGrepTool } from ${JSON.stringify(GREP_JS)};
const dir = process.env.PROJECT;
// One 1 MB file behind 5000 links inside the project: minutes of scanning, little disk.
writeFileSync(join(dir, "big.txt"), ("a".repeat(999) + "\\n").repeat(1000));
for (let i = 0; i < 5000; i++) symlinkSync("big.txt", join(dir, "l" + i + ".txt"));
const ac = new AbortController();
process.on("SIGTERM", () => ac.abort());
process.on("SIGINT", () => ac.abort());
process.stdout.write("started\\n");
const r = await createGrepTool({ cwd: dir }).run({ pattern: "^(a+)+b$" }, { signal: ac.signal });
process.stdout.write(r.content + "\\n");
`;

describe("a grep in a real process", () => {
  beforeAll(() => {
    if (!existsSync(GREP_JS)) throw new Error("run `npm run build` first");
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} stops it`, async () => {
      const script = join(project.dir, "child.mjs");
      writeFileSync(script, CHILD);
      const child = spawn(process.execPath, [script], {
        cwd: REPO,
        env: { ...process.env, PROJECT: project.dir },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
      await new Promise<void>((started) =>
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("started")) started();
        }),
      );
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(out).toContain("grep: interrupted by the user.");
      // vitest.config.ts's 120 s is the deadline: at a load of 20 one run took 41 s and another
      // (its child still compiled through tsx) passed a 60 s deadline of its own.
    });
  }
});
