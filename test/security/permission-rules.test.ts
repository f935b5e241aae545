/**
 * Permission rules from settings files, end to end through `keel run` against the simulator: a
 * deny rule (Keel's or Claude Code's, user or project) refuses the call in every mode — --yes and
 * bypassPermissions included; an allow rule approves only lines every command of which it
 * names; a cloned project's allow rules approve nothing until the project is trusted.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
}

/** `~/.claude/settings.json` of the world (HOME is the world's root). */
const claudeUser = (w: World) => join(w.root, ".claude", "settings.json");

async function run(w: World, ...extra: string[]) {
  const r = await keel(w, ["run", "go", "--output-format", "json", ...extra]);
  expect(r.code, r.stderr).toBe(0);
  const calls = JSON.parse(r.stdout).toolCalls as Array<{ name: string; status: string }>;
  return { calls, r };
}

/** What the model was told about its call: the last message of request `i`. */
function toolResult(w: World, i: number): string {
  return String(w.sim.requests[i]?.messages.at(-1)?.content);
}

describe("deny rules", () => {
  it("Read(./.env) in ~/.claude/settings.json keeps .env from read_file even with --yes", async () => {
    const w = await newWorld(
      script(reply().tool("read_file", { path: ".env" }), reply().text("done")),
    );
    writeFileSync(join(w.project, ".env"), "API_TOKEN=hunter2-secret\n");
    writeJson(claudeUser(w), { permissions: { deny: ["Read(./.env)"] } });
    const { calls } = await run(w, "--yes");
    expect(calls.map((c) => c.status)).toEqual(["blocked"]);
    const told = toolResult(w, 1);
    expect(told).toContain(
      "Denied by the rule Read(./.env) in ~/.claude/settings.json. The tool did not run.",
    );
    expect(JSON.stringify(w.sim.requests)).not.toContain("hunter2-secret");
  });

  it("a grep over the whole project skips the denied file", async () => {
    const w = await newWorld(
      script(reply().tool("grep", { pattern: "TOKEN" }), reply().text("done")),
    );
    writeFileSync(join(w.project, ".env"), "API_TOKEN=hunter2-secret\n");
    writeFileSync(join(w.project, "app.js"), "const TOKEN = process.env.API_TOKEN;\n");
    writeJson(claudeUser(w), { permissions: { deny: ["Read(./.env)"] } });
    const { calls } = await run(w);
    expect(calls.map((c) => c.status)).toEqual(["ok"]);
    expect(toolResult(w, 1)).toContain("app.js");
    expect(JSON.stringify(w.sim.requests)).not.toContain("hunter2-secret");
  });

  it("a link to .env and a grep of it are denied too (bypassPermissions)", async () => {
    const w = await newWorld(
      script(
        reply().tool("read_file", { path: "notes.txt" }),
        reply().tool("grep", { pattern: "TOKEN", path: ".env" }),
        reply().text("done"),
      ),
    );
    writeFileSync(join(w.project, ".env"), "API_TOKEN=hunter2-secret\n");
    const { symlinkSync } = await import("node:fs");
    symlinkSync(".env", join(w.project, "notes.txt"));
    // A project's deny rule applies without trust: it only restricts.
    writeJson(join(w.project, ".claude", "settings.json"), {
      permissions: { deny: ["Read(./.env)"] },
    });
    const { calls } = await run(w, "--mode", "bypassPermissions");
    expect(calls.map((c) => c.status)).toEqual(["blocked", "blocked"]);
    expect(JSON.stringify(w.sim.requests)).not.toContain("hunter2-secret");
  });

  for (const mode of ["default", "plan"]) {
    it.skipIf(!sandboxStatus().available)(
      `an auto-approved command in the sandbox finds denied files empty (${mode} mode)`,
      async () => {
        const command =
          "cat .env; grep -r TOKEN . ; head -n 5 secrets/db.txt; cat notes.txt; cat creds; cat app.js";
        const w = await newWorld(script(reply().tool("shell", { command }), reply().text("done")));
        writeFileSync(join(w.project, ".env"), "API_TOKEN=hunter2-secret\n");
        mkdirSync(join(w.project, "secrets", "deep"), { recursive: true });
        writeFileSync(join(w.project, "secrets", "db.txt"), "password=sekrit-db\n");
        writeFileSync(join(w.project, "secrets", "deep", "k"), "TOKEN=sekrit-deep\n");
        writeFileSync(join(w.project, "app.js"), "const TOKEN = process.env.API_TOKEN;\n");
        const { symlinkSync } = await import("node:fs");
        symlinkSync(".env", join(w.project, "notes.txt"));
        // A link in the project to a file outside it, covered by a rule by its own name.
        writeFileSync(join(w.root, "creds.txt"), "aws=sekrit-outside\n");
        symlinkSync(join(w.root, "creds.txt"), join(w.project, "creds"));
        writeJson(join(w.project, ".claude", "settings.json"), {
          permissions: {
            deny: ["Read(./.env)", "Read(./creds)", "Bash(rm:*)"],
            ask: ["Read(./secrets/**)"],
          },
        });
        const { calls } = await run(w, "--mode", mode);
        expect(calls.map((c) => c.status)).toEqual(["ok"]);
        const told = toolResult(w, 1);
        expect(told).toContain("const TOKEN = process.env.API_TOKEN;"); // the control
        expect(told).not.toMatch(/hunter2|sekrit/);
      },
    );
  }

  for (const flags of [
    ["--yes"],
    ["--mode", "bypassPermissions"],
    ["--yes", "--mode", "bypassPermissions"],
  ]) {
    it(`Bash(rm:*) keeps rm -f important.txt from running (${flags.join(" ")})`, async () => {
      const w = await newWorld(
        script(
          reply().tool("shell", { command: "rm -f important.txt" }),
          reply().tool("shell", { command: "echo hi && env rm -f important.txt" }),
          reply().tool("shell", { command: "sh -c 'rm -f important.txt'" }),
          reply().text("done"),
        ),
      );
      writeFileSync(join(w.project, "important.txt"), "keep me\n");
      writeJson(join(w.project, ".claude", "settings.local.json"), {
        permissions: { deny: ["Bash(rm:*)"] },
      });
      const { calls } = await run(w, ...flags);
      expect(calls.map((c) => c.status)).toEqual(["blocked", "blocked", "blocked"]);
      expect(toolResult(w, 1)).toContain("Denied by the rule Bash(rm:*) in ");
      expect(readFileSync(join(w.project, "important.txt"), "utf8")).toBe("keep me\n");
    });
  }

  it("control: without the rule, --yes deletes the file", async () => {
    const w = await newWorld(
      script(reply().tool("shell", { command: "rm -f important.txt" }), reply().text("done")),
    );
    writeFileSync(join(w.project, "important.txt"), "keep me\n");
    const { calls } = await run(w, "--yes");
    expect(calls.map((c) => c.status)).toEqual(["ok"]);
    expect(existsSync(join(w.project, "important.txt"))).toBe(false);
  });

  it("deny in .keel/settings.json applies too", async () => {
    const w = await newWorld(
      script(
        reply().tool("write_file", { path: "src/gen.ts", content: "x" }),
        reply().text("done"),
      ),
    );
    writeJson(join(w.project, ".keel", "settings.json"), {
      permissions: { deny: ["Edit(/src/**)"] },
    });
    const { calls } = await run(w, "--yes");
    expect(calls.map((c) => c.status)).toEqual(["blocked"]);
    expect(existsSync(join(w.project, "src", "gen.ts"))).toBe(false);
  });
});

describe("ask rules", () => {
  it("an ask rule needs approval even in bypassPermissions; --yes gives it", async () => {
    const script2 = () =>
      script(reply().tool("read_file", { path: "notes.txt" }), reply().text("done"));
    const w = await newWorld(script2());
    writeFileSync(join(w.project, "notes.txt"), "plain notes\n");
    writeJson(join(w.home, "settings.json"), { permissions: { ask: ["Read(notes.txt)"] } });
    const refused = await run(w, "--mode", "bypassPermissions");
    expect(refused.calls.map((c) => c.status)).toEqual(["blocked"]);
    expect(toolResult(w, 1)).toContain("asks for approval");
    const w2 = await newWorld(script2());
    writeFileSync(join(w2.project, "notes.txt"), "plain notes\n");
    writeJson(join(w2.home, "settings.json"), { permissions: { ask: ["Read(notes.txt)"] } });
    const approved = await run(w2, "--yes");
    expect(approved.calls.map((c) => c.status)).toEqual(["ok"]);
  });
});

describe("allow rules", () => {
  const touchScript = () =>
    script(
      reply().tool("shell", { command: "touch ok" }),
      reply().tool("shell", { command: "touch ok && touch evil" }),
      reply().tool("shell", { command: "touch ok; touch evil" }),
      reply().tool("shell", { command: "touch ok $(touch evil)" }),
      reply().text("done"),
    );

  it("a user allow rule runs `touch ok` without --yes, and nothing chained to it", async () => {
    const w = await newWorld(touchScript());
    writeJson(join(w.home, "settings.json"), { permissions: { allow: ["Bash(touch ok:*)"] } });
    const { calls } = await run(w);
    expect(calls.map((c) => c.status)).toEqual(["ok", "blocked", "blocked", "blocked"]);
    expect(existsSync(join(w.project, "ok"))).toBe(true);
    expect(existsSync(join(w.project, "evil"))).toBe(false);
  });

  it("Claude Code's ~/.claude/settings.json allow rules apply too", async () => {
    const w = await newWorld(touchScript());
    writeJson(claudeUser(w), { permissions: { allow: ["Bash(touch ok:*)"] } });
    const { calls } = await run(w);
    expect(calls[0]?.status).toBe("ok");
    expect(existsSync(join(w.project, "evil"))).toBe(false);
  });

  it("an untrusted project's allow rule does nothing; trusted, it applies", async () => {
    const w = await newWorld(touchScript());
    writeJson(join(w.project, ".claude", "settings.local.json"), {
      permissions: { allow: ["Bash(touch ok:*)"] },
    });
    const untrusted = await run(w);
    expect(untrusted.calls.map((c) => c.status)).toEqual([
      "blocked",
      "blocked",
      "blocked",
      "blocked",
    ]);
    expect(existsSync(join(w.project, "ok"))).toBe(false);

    const trust = await keel(w, ["hooks", "trust", "--cwd", w.project]);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toContain("Bash(touch ok:*)");
    const w2 = await newWorld(touchScript());
    // The same project directory, now trusted, with the second world's simulator.
    const again = await keel({ ...w, sim: w2.sim, env: { ...w.env, KEEL_BASE_URL: w2.sim.url } }, [
      "run",
      "go",
      "--output-format",
      "json",
    ]);
    expect(again.code, again.stderr).toBe(0);
    const calls = JSON.parse(again.stdout).toolCalls as Array<{ status: string }>;
    expect(calls.map((c) => c.status)).toEqual(["ok", "blocked", "blocked", "blocked"]);
    expect(existsSync(join(w.project, "ok"))).toBe(true);
    expect(existsSync(join(w.project, "evil"))).toBe(false);
  });

  it("a deny beats an allow for the same command", async () => {
    const w = await newWorld(
      script(reply().tool("shell", { command: "touch ok" }), reply().text("done")),
    );
    writeJson(join(w.home, "settings.json"), { permissions: { allow: ["Bash(touch:*)"] } });
    writeJson(join(w.project, ".claude", "settings.json"), {
      permissions: { deny: ["Bash(touch ok)"] },
    });
    const { calls } = await run(w, "--yes");
    expect(calls.map((c) => c.status)).toEqual(["blocked"]);
    expect(existsSync(join(w.project, "ok"))).toBe(false);
  });
});
