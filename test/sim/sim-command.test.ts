import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runSim, SCRIPT_HELP } from "../../src/cli/commands/sim.js";
import { main } from "../../src/cli/main.js";
import { UserError } from "../../src/cli/user-error.js";
import { parseScript, type Simulator } from "../../src/sim/index.js";

const ROOT = resolve(__dirname, "../..");
let dir = "";
let good = "";
let bad = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-sim-cmd-"));
  good = join(dir, "script.json");
  bad = join(dir, "bad.json");
  await writeFile(good, JSON.stringify({ replies: [{ text: "from the script" }] }));
  await writeFile(bad, JSON.stringify({ replies: [{ toolCalls: [{ name: "" }] }] }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function ask(url: string): Promise<unknown> {
  const res = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer k", "content-type": "application/json" },
    body: JSON.stringify({
      model: "deepseek-v4-flash",
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  return res.json();
}

describe("keel sim", () => {
  it("prints its URL, answers from the script, logs requests and stops on abort", async () => {
    const out: string[] = [];
    const log: string[] = [];
    const controller = new AbortController();
    let onStarted: (sim: Simulator) => void = () => {};
    const started = new Promise<Simulator>((res) => {
      onStarted = res;
    });
    const running = runSim({
      scriptPath: good,
      out: (t) => out.push(t),
      log: (t) => log.push(t),
      signal: controller.signal,
      onStarted,
    });
    const sim = await started;
    expect(out).toEqual([`${sim.url}\n`]);
    expect(out[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(await ask(sim.url)).toMatchObject({
      choices: [{ message: { content: "from the script" } }],
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^#0 200 reply 0 prompt=\d+ hit=0/);
    controller.abort();
    await running;
    await expect(fetch(sim.url)).rejects.toThrow();
  });

  it("rejects a bad script with the path and field", async () => {
    const signal = AbortSignal.abort();
    const run = runSim({ scriptPath: bad, out: () => {}, log: () => {}, signal });
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(`${bad}: replies[0].toolCalls[0].name`);
  });

  it("exits 1 with one line on stderr for a bad script", async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      expect(await main(["sim", "--script", bad])).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const text = writes.join("");
    expect(text.trimEnd().split("\n")).toHaveLength(1);
    expect(text).toContain(bad);
  });

  it.skipIf(!existsSync(join(ROOT, "dist/cli/commands/sim.js")))(
    "runs as `node bin/keel.js sim`",
    async () => {
      const child = spawn(process.execPath, [join(ROOT, "bin/keel.js"), "sim", "--script", good], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<number | null>((res) => child.on("exit", (code) => res(code)));
      const lines = createInterface({ input: child.stdout });
      const [url] = await new Promise<string[]>((res) => lines.once("line", (l) => res([l])));
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await ask(url ?? "")).toMatchObject({
        choices: [{ message: { content: "from the script" } }],
      });
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    },
  );
});

describe("keel sim --help", () => {
  it("shows script examples that are all valid replies", () => {
    const examples = SCRIPT_HELP.split("\n")
      .filter((l) => l.startsWith("  {"))
      .map((l) => l.trim().slice(0, l.trim().lastIndexOf("}") + 1));
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const ex of examples) {
      const parsed = parseScript([JSON.parse(ex)]);
      expect(parsed, ex).toMatchObject({ ok: true });
    }
  });
});

describe("keel sim with a script that is not valid JSON", () => {
  it("says what is wrong and where, in one line", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"replies": [\n  {"text": "a"},\n]}\n');
    const run = runSim({
      scriptPath: broken,
      out: () => {},
      log: () => {},
      signal: AbortSignal.abort(),
    });
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(`${broken}: invalid JSON: trailing comma at 3:1`);
    const message = await run.catch((e: Error) => e.message);
    expect(message).not.toContain("\n");
  });
});
