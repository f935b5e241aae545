/**
 * Whole plugins through the built CLI (a spawned `node bin/keel.js`, the bundle as it ships):
 * `keel plugins install` from the fixture folder, then `keel run` of the plugin's command against
 * the simulator calls its MCP tool and fires its hook; after `keel plugins disable` the command
 * is unknown and nothing of the plugin runs.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { type World, worldPerTest } from "../agent/harness.js";
import { buildPrivate } from "../e2e/tui-harness.js";

let build: ReturnType<typeof buildPrivate>;
beforeAll(() => {
  build = buildPrivate();
}, 240_000);
afterAll(() => build?.cleanup());

const newWorld = worldPerTest();
const PLUGIN = join(import.meta.dirname, "..", "fixtures", "plugins", "changelog-kit");
const TOOL = "mcp__plugin_changelog-kit_changes__unreleased";

/** Runs the built CLI; asynchronously, since the simulator answers from this process. */
function keelBin(
  w: World,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const proc = spawn(process.execPath, [build.bin, ...args], { env: w.env, cwd: w.project });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    proc.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    proc.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("whole plugins through the built CLI", () => {
  it("install, run its command (MCP tool called, hook fired), disable, and it is gone", {
    timeout: 60_000,
  }, async () => {
    const w = await newWorld(script(reply().tool(TOOL, {}), reply().text("Drafted.")));
    writeFileSync(
      join(w.project, "CHANGELOG.md"),
      "# Changelog\n\n## [Unreleased]\n- Fix the login crash\n",
    );
    const installed = await keelBin(w, ["plugins", "install", PLUGIN]);
    expect(installed.stderr).toBe("");
    expect(installed.stdout).toContain("Installed changelog-kit 1.2.0");
    const run = await keelBin(w, [
      "run",
      "/changelog-kit:draft fix the login crash",
      "--output-format",
      "json",
      "--cwd",
      w.project,
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.result).toBe("Drafted.");
    expect(out.toolCalls[0]).toMatchObject({ name: TOOL, status: "ok" });
    const tool = w.sim.requests[1]?.messages.find((m) => m.role === "tool")?.content;
    expect(tool).toContain("changelog-kit unreleased (in plugin):\n- Fix the login crash");
    const log = join(w.home, "plugins", "data", "changelog-kit", "prompts.log");
    expect(readFileSync(log, "utf8")).toContain("fix the login crash");

    expect((await keelBin(w, ["plugins", "disable", "changelog-kit"])).code).toBe(0);
    const asked = w.sim.requests.length;
    const off = await keelBin(w, ["run", "/changelog-kit:draft again", "--cwd", w.project]);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain("unknown command /changelog-kit:draft");
    expect(w.sim.requests.length).toBe(asked);
    expect(readFileSync(log, "utf8")).not.toContain("again");
    expect(existsSync(join(w.home, "plugins", "changelog-kit"))).toBe(true);
  });
});
