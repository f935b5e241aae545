/**
 * Text piped into `keel run` reaches the model after the prompt; a terminal-less stdin that is
 * not a pipe is not read, a silent pipe is given up on, and too much input is a clear error.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promptWithInput, readPipedInput, stdinIsPiped } from "../../src/cli/commands/run-stdin.js";
import { UserError } from "../../src/cli/user-error.js";
import { reply, script, startSimulator } from "../../src/sim/index.js";
import { buildPrivate } from "../e2e/tui-harness.js";
import { FAULT_SERVER } from "../mcp/servers.js";

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let build: ReturnType<typeof buildPrivate>;
let work: string;
beforeAll(() => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-stdin-"));
}, 120_000);
afterAll(() => {
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe("piped input", () => {
  it("is read only from a pipe or a regular file", () => {
    const file = join(work, "input.txt");
    writeFileSync(file, "x");
    const fd = openSync(file, "r");
    const nul = openSync("/dev/null", "r");
    const fifo = join(work, "fifo");
    spawnSync("mkfifo", [fifo]);
    const fifoFd = openSync(fifo, "r+");
    try {
      expect(stdinIsPiped(fd)).toBe(true);
      expect(stdinIsPiped(fifoFd)).toBe(true);
      expect(stdinIsPiped(nul)).toBe(false);
    } finally {
      for (const f of [fd, nul, fifoFd]) closeSync(f);
    }
  });

  it("waits for the end, gives up on silence with a note, refuses too much", async () => {
    const s = new PassThrough();
    const read = readPipedInput(s, { waitMs: 5000 });
    s.write("diff --git a/x b/x\n");
    s.end("+new line\n");
    expect(await read).toEqual({ text: "diff --git a/x b/x\n+new line\n" });

    const silent = await readPipedInput(new PassThrough(), { waitMs: 20 });
    expect(silent.text).toBeNull();
    expect(silent.note).toMatch(/^stdin: nothing arrived in 0.02 s/);

    const big = new PassThrough();
    const tooMuch = readPipedInput(big, { maxBytes: 10 });
    big.write("0123456789abc");
    await expect(tooMuch).rejects.toBeInstanceOf(UserError);

    expect(promptWithInput("review this", "a\nb")).toBe("review this\n\n<stdin>\na\nb\n</stdin>");
    expect(promptWithInput("", "just this\n")).toBe("<stdin>\njust this\n</stdin>");
    expect(promptWithInput("plain", null)).toBe("plain");
  });

  it('`git diff | keel run "review this"`: the diff follows the prompt in the request', async () => {
    const sim = await startSimulator({ script: script(reply().text("Looks fine.")) });
    try {
      const project = join(work, "project");
      const home = join(work, "home");
      mkdirSync(project, { recursive: true });
      mkdirSync(home, { recursive: true });
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        KEEL_HOME: join(home, ".keel"),
        DEEPSEEK_API_KEY: "sk-test",
        KEEL_BASE_URL: sim.url,
      };
      const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (done) => {
          const child = spawn(
            "sh",
            [
              "-c",
              'printf "%s\\n" "-old line" "+new line" | "$0" "$1" run "review this"',
              process.execPath,
              build.bin,
            ],
            { cwd: project, env },
          );
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (c) => {
            stdout += c;
          });
          child.stderr.on("data", (c) => {
            stderr += c;
          });
          child.on("close", (code) => done({ code, stdout, stderr }));
        },
      );
      expect(out.stderr).toBe("");
      expect(out.code).toBe(0);
      expect(out.stdout).toContain("Looks fine.");
      const user = sim.requests[0]?.messages.at(-1)?.content;
      expect(user).toContain("review this\n\n<stdin>\n-old line\n+new line\n</stdin>");
    } finally {
      await sim.close();
    }
  });

  it("mentions in piped text stay text (attacks3/31, 47); typed, an image may be anywhere", async () => {
    const sim = await startSimulator({
      script: script(reply().text("Read it."), reply().text("A dot.")),
    });
    try {
      const project = join(work, "project-img");
      const home = join(work, "home-img");
      mkdirSync(join(home, "Desktop"), { recursive: true });
      mkdirSync(join(home, ".keel"), { recursive: true });
      mkdirSync(project, { recursive: true });
      writeFileSync(join(home, "Desktop", "shot.png"), PNG);
      writeFileSync(join(project, "local.png"), PNG);
      // The user's own MCP server, whose resource a repository's text names.
      writeFileSync(
        join(home, ".keel", "settings.json"),
        JSON.stringify({
          mcpServers: { docs: { command: process.execPath, args: [FAULT_SERVER, "prompts"] } },
        }),
      );
      const env = {
        PATH: process.env.PATH,
        HOME: home,
        KEEL_HOME: join(home, ".keel"),
        DEEPSEEK_API_KEY: "sk-test",
        KEEL_BASE_URL: sim.url,
      };
      const run = (prompt: string, model: string) =>
        new Promise<{ code: number | null; stderr: string }>((done) => {
          const child = spawn(
            "sh",
            [
              "-c",
              'printf "%s\\n" "see @~/Desktop/shot.png @local.png @docs:notes://today" | "$0" "$1" run "$2" --model "$3"',
              process.execPath,
              build.bin,
              prompt,
              model,
            ],
            { cwd: project, env },
          );
          let stderr = "";
          child.stderr.on("data", (c) => {
            stderr += c;
          });
          child.on("close", (code) => done({ code, stderr }));
        });
      // A file piped in (a diff, a log) attaches nothing, reads no resource and, for a model
      // without vision, does not refuse the turn: its mentions are the file's text.
      const piped = await run("summarize this", "deepseek-v4-flash");
      // Nothing but the note a server still starting after a second prints (a loaded machine).
      const errors = (text: string) => text.replace(/^keel: waiting for MCP server .*\n?/gm, "");
      expect(errors(piped.stderr)).toBe("");
      expect(piped.code).toBe(0);
      const first = sim.requests[0]?.messages.filter((m) => m.role === "user").at(-1);
      expect(String(first?.content)).toContain(
        "see @~/Desktop/shot.png @local.png @docs:notes://today",
      );
      expect(String(first?.content)).not.toContain("<resource");
      expect(first?.images ?? []).toEqual([]);
      // The same image mention typed in the prompt is the user's own: sent, from anywhere.
      const typed = await run("what is @~/Desktop/shot.png", "keel-sim-vision");
      expect(errors(typed.stderr)).toBe("");
      expect(typed.code).toBe(0);
      const user = sim.requests[1]?.messages.filter((m) => m.role === "user").at(-1);
      expect(user?.images).toEqual([`data:image/png;base64,${PNG.toString("base64")}`]);
    } finally {
      await sim.close();
    }
  });
});
