/**
 * Managed settings through the real entry point: the built `keel run --yes` against the
 * simulator. A managed deny holds against a trusted project allow rule, `--yes` and bypass
 * mode; a malformed managed file stops the run before the first request, naming file and line.
 * A control run without the managed file shows the same script does run the command.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setPermissionRulesTrust } from "../../src/agent/permissions/rules.js";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { buildPrivate } from "../e2e/tui-harness.js";

let build: ReturnType<typeof buildPrivate>;
let work: string;
let sims: Simulator[] = [];
beforeAll(() => {
  build = buildPrivate();
  work = mkdtempSync(join(tmpdir(), "keel-managed-"));
}, 120_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
  build?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** A simulator that asks for `touch pwned` once, then answers "done". */
async function touchingSim(): Promise<Simulator> {
  const sim = await startSimulator({
    script: script(reply().tool("shell", { command: "touch pwned" }), reply().text("done")),
  });
  sims.push(sim);
  return sim;
}

function keelRun(o: {
  project: string;
  home: string;
  sim: Simulator;
  managed?: string;
  args: string[];
}) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: o.home,
    KEEL_HOME: join(o.home, ".keel"),
    DEEPSEEK_API_KEY: "sk-test",
    KEEL_BASE_URL: o.sim.url,
    ...(o.managed !== undefined ? { KEEL_MANAGED_SETTINGS: o.managed } : {}),
  };
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [build.bin, "run", ...o.args], {
      cwd: o.project,
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

/** A project whose own settings allow `touch`, trusted by its user. */
function projectAllowingTouch(name: string): { project: string; home: string } {
  const project = join(work, name, "project");
  const home = join(work, name, "home");
  mkdirSync(join(project, ".keel"), { recursive: true });
  mkdirSync(join(home, ".keel"), { recursive: true });
  writeFileSync(
    join(project, ".keel", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(touch *)"] } }),
  );
  setPermissionRulesTrust({
    keelHome: join(home, ".keel"),
    projectDir: project,
    homeDir: home,
    trust: true,
  });
  return { project, home };
}

describe("keel run under managed settings", () => {
  it("control: without a managed file the trusted project allow and --yes run the command", async () => {
    const { project, home } = projectAllowingTouch("control");
    const r = await keelRun({ project, home, sim: await touchingSim(), args: ["--yes", "go"] });
    expect(r.code).toBe(0);
    expect(existsSync(join(project, "pwned"))).toBe(true);
  });

  for (const extra of [["--yes"], ["--yes", "--mode", "bypassPermissions"]]) {
    it(`a managed deny beats a trusted project allow with ${extra.join(" ")}`, async () => {
      const { project, home } = projectAllowingTouch(`deny${extra.length}`);
      const managed = join(work, `managed${extra.length}.json`);
      writeFileSync(managed, JSON.stringify({ permissions: { deny: ["Bash(touch *)"] } }));
      const sim = await touchingSim();
      const r = await keelRun({
        project,
        home,
        managed,
        sim,
        args: [...extra, "--output-format", "json", "go"],
      });
      expect(r.stderr).not.toContain("TypeError");
      expect(existsSync(join(project, "pwned"))).toBe(false);
      expect(JSON.parse(r.stdout).toolCalls).toEqual([
        { name: "shell", input: { command: "touch pwned" }, status: "blocked" },
      ]);
      // The model is told which rule, in which file, refused it.
      expect(sim.requests[1]?.rawBody).toContain(`Denied by the rule Bash(touch *) in ${managed}`);
    });
  }

  it("a malformed managed file stops the run before the first request, naming file and line", async () => {
    const { project, home } = projectAllowingTouch("malformed");
    const managed = join(work, "broken.json");
    writeFileSync(managed, '{\n  "permissions": {\n    "deny": ["Bash(touch *)",]\n  }\n}\n');
    const sim = await touchingSim();
    const r = await keelRun({ project, home, managed, sim, args: ["--yes", "go"] });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("the managed settings file cannot be applied");
    expect(r.stderr).toMatch(new RegExp(`${managed.replace(/[.]/g, "\\.")}:3`));
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(project, "pwned"))).toBe(false);
    expect(sim.requests.length).toBe(0);
  });
});
