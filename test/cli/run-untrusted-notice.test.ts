/**
 * A real `keel run` (the built CLI against the simulator) in a project with one untrusted hook
 * says that the hook will not run exactly once: on stderr in text mode, as one notice event in
 * stream-json, on stderr and in the result's `warnings` in json, and again once on a run that
 * continues the session.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { buildPrivate } from "../e2e/tui-harness.js";

const NOTICE = "1 project hook is not trusted";

let build: ReturnType<typeof buildPrivate>;
let work: string;
let sim: Simulator;
beforeAll(async () => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-untrusted-notice-"));
  sim = await startSimulator({
    script: script(reply().tool("list_dir", { path: "." }), reply().text("done")),
  });
}, 120_000);
afterAll(async () => {
  await sim?.close();
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** Runs the built keel in `project`; stdin is closed (not a pipe that stays silent). */
function keelRun(project: string, home: string, args: string[]) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    KEEL_HOME: join(home, ".keel"),
    DEEPSEEK_API_KEY: "sk-test",
    KEEL_BASE_URL: sim.url,
  };
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    // The user chose to run without the untrusted hooks; without that, keel run stops at once
    // (test/agent/fail-closed.test.ts).
    const child = spawn(process.execPath, [build.bin, "run", "--without-project-hooks", ...args], {
      cwd: project,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const count = (text: string) => text.split(NOTICE).length - 1;

describe("keel run with one untrusted project hook", () => {
  it("says it will not run once per run, in text, stream-json and json", async () => {
    const project = join(work, "project");
    const home = join(work, "home");
    mkdirSync(join(project, ".keel"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(project, ".keel", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "touch ran" }] }] },
      }),
    );
    const text = await keelRun(project, home, ["list the files"]);
    expect(text.code).toBe(0);
    expect(count(text.stderr)).toBe(1);
    expect(count(text.stdout)).toBe(0);

    const again = await keelRun(project, home, ["and again", "--continue"]);
    expect(again.code).toBe(0);
    expect(count(again.stderr) + count(again.stdout)).toBe(1);

    const stream = await keelRun(project, home, ["once more", "--output-format", "stream-json"]);
    expect(stream.code).toBe(0);
    expect(stream.stderr).not.toContain(NOTICE);
    const notices = stream.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; text?: string })
      .filter((e) => e.type === "notice" && e.text?.includes(NOTICE));
    expect(notices).toHaveLength(1);

    // json: stdout is the result alone, which lists the warning; stderr says it once too.
    const json = await keelRun(project, home, ["and json", "--output-format", "json"]);
    expect(json.code).toBe(0);
    expect(count(json.stderr)).toBe(1);
    const result = JSON.parse(json.stdout) as { warnings: string[]; isError: boolean };
    expect(result.isError).toBe(false);
    expect(result.warnings.filter((w) => w.includes(NOTICE))).toHaveLength(1);
  });
});
