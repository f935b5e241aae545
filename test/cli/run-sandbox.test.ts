/**
 * `keel run --yes` as a model that wants out meets it: an auto-approved command runs in the
 * sandbox, and the sandbox hides what Keel calls home and KEEL_HOME however the environment
 * names them (HOME unset as under cron or `env -i`, a relative KEEL_HOME).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { accountHome } from "../../src/base/resolve-paths.js";
import { reply, script } from "../../src/sim/index.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { keel, worldPerTest } from "../agent/harness.js";

const REPO = resolve(__dirname, "../..");
const status = sandboxStatus();
if (!status.available) console.warn(`keel run sandbox tests skipped: ${status.reason}`);
const newWorld = worldPerTest();

/** What the model got back from its one shell call (the tool message of the second request). */
function toolResult(world: Awaited<ReturnType<typeof newWorld>>): string {
  const msg = world.sim.requests[1]?.messages.find((m) => m.role === "tool");
  return typeof msg?.content === "string" ? msg.content : JSON.stringify(msg?.content);
}

/** A regular file directly in the account's home (outside /tmp), or undefined. */
function fileInAccountHome(): string | undefined {
  const home = accountHome();
  if (home === undefined || /^\/(var\/)?tmp(\/|$)/.test(home)) return undefined;
  const name = readdirSync(home).find((n) => {
    try {
      return statSync(join(home, n)).isFile();
    } catch {
      return false;
    }
  });
  return name === undefined ? undefined : join(home, name);
}

describe.skipIf(!status.available)("keel run --yes: the sandbox hides Keel's home", () => {
  it("a relative KEEL_HOME and HOME unset: config.json is not read by an auto-approved cat", async () => {
    // In the checkout: outside /tmp and the homes, which are hidden anyway.
    const keelHome = mkdtempSync(join(REPO, ".keel-home-run-"));
    try {
      writeFileSync(join(keelHome, "config.json"), '{"note":"sk-SECRET-IN-CONFIG"}', {
        mode: 0o600,
      });
      const world = await newWorld(
        script(
          reply().tool("shell", { command: `cat ${keelHome}/config.json` }),
          reply().text("done"),
        ),
      );
      world.env.KEEL_HOME = relative(process.cwd(), keelHome);
      delete world.env.HOME;
      const r = await keel(world, ["run", "read the key", "--yes", "--output-format", "json"]);
      expect(r.code).toBe(0);
      const got = toolResult(world);
      expect(got).toMatch(/sandbox|No such file/);
      expect(got).not.toContain("SECRET");
    } finally {
      rmSync(keelHome, { recursive: true, force: true });
    }
  });

  const probe = fileInAccountHome();
  it.skipIf(probe === undefined)(
    "HOME unset: a file in the account's home is not there for an auto-approved command (skipped: no file in the account's home outside /tmp)",
    async () => {
      const world = await newWorld(
        script(
          reply().tool("shell", { command: `test -e '${probe}' && echo VISIBLE || echo HIDDEN` }),
          reply().text("done"),
        ),
      );
      delete world.env.HOME;
      const r = await keel(world, ["run", "look", "--yes", "--output-format", "json"]);
      expect(r.code).toBe(0);
      expect(toolResult(world)).toContain("HIDDEN");
    },
  );
});

describe.skipIf(!status.available)("keel run: git's copies of a file a Read rule forbids", () => {
  it("git show HEAD:.env under Read(./.env) is not auto-approved (headless: refused), cat .env reads nothing", async () => {
    const world = await newWorld(
      script(
        reply().tool("shell", { command: "git show HEAD:.env" }),
        reply().tool("shell", { command: "cat .env" }),
        reply().text("done"),
      ),
    );
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: world.project,
        stdio: "ignore",
      });
    writeFileSync(join(world.project, ".env"), "API_KEY=sk-SECRET-IN-HISTORY\n");
    git("init", "-q");
    git("add", ".env");
    git("commit", "-qm", "add env");
    writeFileSync(
      join(world.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }),
    );
    const r = await keel(world, ["run", "show me the key", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const tools = (i: number) =>
      (world.sim.requests[i]?.messages ?? [])
        .filter((m) => m.role === "tool")
        .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
        .join("\n");
    expect(tools(1)).toMatch(/needs the user's approval/);
    expect(tools(2)).not.toContain("SECRET");
  });

  it("a 50,000-command pipeline neither crashes the run nor runs: headless, it is refused", async () => {
    const line = Array(50_000).fill("cat").join("|");
    const world = await newWorld(
      script(reply().tool("shell", { command: line }), reply().text("done")),
    );
    const r = await keel(world, ["run", "go", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toBe("done");
    const msg = world.sim.requests[1]?.messages.find((m) => m.role === "tool");
    expect(String(msg?.content)).toMatch(
      /needs the user's approval.*too large|operator|characters/s,
    );
  });
});
