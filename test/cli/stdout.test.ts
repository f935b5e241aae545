/**
 * src/cli/stdout.ts: command output written straight to fd 1 arrives whole through a pipe, in
 * order with process.stdout's, and a reader that goes away early ends the process quietly.
 */
import { spawn, spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
// As under bin/keel.js, which sets this until process.stdout is created.
const script = (body: string) => `
  process[Symbol.for("keel.stdout.unopened")] = true;
  const { writeStdout } = await import(${JSON.stringify(join(ROOT, "src/cli/stdout.ts"))});
  ${body}`;
const node = (body: string) => ["--import", "tsx", "--input-type=module", "-e", script(body)];

describe("writeStdout", () => {
  it("writes everything (1 MB, more than a pipe holds) in order", () => {
    const r = spawnSync(
      process.execPath,
      node(`writeStdout("a\\n"); writeStdout("b".repeat(1 << 20) + "\\n"); writeStdout("c\\n");`),
      { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 22 },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`a\n${"b".repeat(1 << 20)}\nc\n`);
  });

  it("goes through process.stdout once that stream exists (in order with it)", () => {
    const r = spawnSync(
      process.execPath,
      node(
        `writeStdout("a\\n"); process[Symbol.for("keel.stdout.unopened")] = false; process.stdout.write("b\\n"); writeStdout("c\\n");`,
      ),
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(r.stdout).toBe("a\nb\nc\n");
  });

  it("ends quietly with the exit code set when the reader closes the pipe", async () => {
    const child = spawn(
      process.execPath,
      node(`process.exitCode = 0; for (let i = 0; i < 1e5; i++) writeStdout("line " + i + "\\n");`),
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    // Read the first chunk, then go away like `| head` does.
    await new Promise<void>((done) => child.stdout.once("data", () => done()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  }, 30_000);
});
