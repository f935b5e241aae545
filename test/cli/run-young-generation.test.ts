/**
 * `keel run` keeps the young generation small (src/cli/young-generation.ts) and sets that V8
 * flag once its session's modules are loaded, not at start: a flag set at run time makes V8
 * refuse the code cache of every module loaded after it (test/e2e/start-probe.ts logs the
 * order).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { writeStartProbe } from "../e2e/start-probe.js";
import { buildPrivate } from "../e2e/tui-harness.js";

let build: ReturnType<typeof buildPrivate>;
let work: string;
let sim: Simulator;
beforeAll(async () => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-run-young-"));
  sim = await startSimulator({ script: script(reply().text("done")) });
}, 120_000);
afterAll(async () => {
  await sim?.close();
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe("keel run and the young-generation flag", () => {
  it("is set once, after the run command's modules are loaded", async () => {
    const { probe, lines } = writeStartProbe(work);
    const project = join(work, "project");
    mkdirSync(project);
    // Not spawnSync: the simulator answers from this process's event loop.
    const child = spawn(process.execPath, ["--import", probe, build.bin, "run", "hello"], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        KEEL_HOME: join(work, "keel-home"),
        DEEPSEEK_API_KEY: "sk-test",
        KEEL_BASE_URL: sim.url,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    const status = await new Promise<number | null>((done) => child.on("close", done));
    expect(status, stderr).toBe(0);
    const seen = lines();
    const flags = seen.filter((l) => l.startsWith("FLAGS "));
    expect(flags).toEqual(["FLAGS --semi-space-growth-factor=1"]);
    const at = seen.indexOf(flags[0] ?? "");
    // The run command's own chunk (and with it the agent, tools and client) came first.
    const runChunk = seen.findIndex((l) => /\/dist\/bundle\/run-\w+\.mjs$/.test(l));
    expect(runChunk, seen.join("\n")).toBeGreaterThan(-1);
    expect(at, seen.join("\n")).toBeGreaterThan(runChunk);
  }, 60_000);
});
