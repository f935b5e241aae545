// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${TOKEN} is written to the config unexpanded
/**
 * `keel mcp` and MCP in `keel run`, in-process against the simulator with real server processes:
 * add / list / get / remove, trust (an untrusted project server is never spawned), and a model
 * calling an MCP tool that a PreToolUse hook with matcher mcp__everything__.* sees.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { commandHook, hookScript, keel, worldPerTest } from "../agent/harness.js";
import { EVERYTHING, FAULT_SERVER } from "../mcp/servers.js";

const newWorld = worldPerTest();

describe("keel mcp add / list / get / remove", () => {
  it("with nothing configured, list names the user file by its real path", async () => {
    const w = await newWorld(script());
    const r = await keel(w, ["mcp", "list", "--cwd", w.project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `No MCP servers configured (.mcp.json, .keel/settings*.json, ${join(w.home, "settings.json")}).\n`,
    );
  });

  it("writes the chosen file 0600, lists status and tools, removes", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    const added = await keel(w, [
      "mcp",
      "add",
      "fault",
      ...cwd,
      "--scope",
      "user",
      "--",
      process.execPath,
      FAULT_SERVER,
      "ok",
    ]);
    expect(added.stderr).toBe("");
    expect(added.stdout).toMatch(/Added MCP server fault to .*settings\.json \(user\)/);
    const file = join(w.home, "settings.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.fault).toEqual({
      command: process.execPath,
      args: [FAULT_SERVER, "ok"],
    });
    const remote = await keel(w, [
      "mcp",
      "add",
      "--transport",
      "http",
      "remote",
      "http://127.0.0.1:9/mcp",
      ...cwd,
      "--scope",
      "project",
      "-H",
      "Authorization: Bearer ${TOKEN}",
    ]);
    expect(remote.stdout).toMatch(/Added MCP server remote to \.mcp\.json \(project\)/);
    expect(
      JSON.parse(readFileSync(join(w.project, ".mcp.json"), "utf8")).mcpServers.remote,
    ).toEqual({
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });

    const list = await keel(w, ["mcp", "list", ...cwd]);
    expect(list.stdout).toContain("fault  stdio  connected, 2 tools");
    expect(list.stdout).toContain("    mcp__fault__echo");
    // Added by the user to a project with no other servers: trusted, so it is started (and
    // reports the variable it lacks). A hand-written .mcp.json stays untrusted (below).
    expect(list.stdout).toContain(
      "remote  http  failed: missing environment variable TOKEN  (.mcp.json)",
    );
    const json = JSON.parse((await keel(w, ["mcp", "list", "--json", ...cwd])).stdout);
    expect(json.servers.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ["fault", "connected"],
      ["remote", "failed"],
    ]);
    expect(JSON.stringify(json)).not.toContain("Bearer");

    const get = await keel(w, ["mcp", "get", "fault", ...cwd]);
    expect(get.stdout).toMatch(/mcp__fault__echo {2}\[read-only\]/);
    expect(get.stdout).toMatch(/mcp__fault__write_note {2}\[asks\]/);

    const removed = await keel(w, ["mcp", "remove", "fault", ...cwd]);
    expect(removed.stdout).toMatch(/Removed MCP server fault/);
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers).toEqual({});
    const missing = await keel(w, ["mcp", "remove", "fault", ...cwd]);
    expect(missing.stderr).toMatch(/no MCP server named fault/);
  });
});

describe("trust", () => {
  it("an untrusted project server is never spawned; keel hooks trust shows it and then it starts", async () => {
    const w = await newWorld(script(reply().text("one"), reply().text("two")));
    const marker = join(w.root, "spawned");
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          sneaky: {
            command: "sh",
            args: ["-c", `touch '${marker}'; exec '${process.execPath}' '${FAULT_SERVER}' ok`],
          },
        },
      }),
    );
    const first = await keel(w, ["run", "hi"]);
    expect(first.stdout).toContain("one");
    expect(first.stderr).toMatch(
      /project server not started until trusted \(keel hooks trust\): sneaky/,
    );
    expect(existsSync(marker)).toBe(false);

    const trust = await keel(w, ["hooks", "trust", "--cwd", w.project]);
    expect(trust.stdout).toMatch(
      /Trusted 1 project MCP server[\s\S]*sneaky {2}stdio: sh -c .*\(\.mcp\.json\)/,
    );
    const second = await keel(w, ["run", "hi again"]);
    expect(second.stdout).toContain("two");
    expect(existsSync(marker)).toBe(true);
    expect(w.sim.requests[1]?.toolsText).toContain("mcp__sneaky__echo");

    // Editing the definition makes it untrusted again.
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { sneaky: { command: "sh", args: ["-c", "exit 1"] } } }),
    );
    const list = await keel(w, ["mcp", "list", "--cwd", w.project]);
    expect(list.stdout).toContain("untrusted");
  });
});

describe("keel run with an MCP server", () => {
  it("the model calls mcp__everything__echo and a PreToolUse hook matching mcp__everything__.* sees it", async () => {
    const w = await newWorld(
      script(
        reply().tool("mcp__everything__echo", { message: "from the model" }),
        reply().text("echoed"),
      ),
    );
    const log = join(w.root, "pre.json");
    const hook = hookScript(w, "pre.sh", `cat > '${log}'`);
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        hooks: { PreToolUse: [commandHook(hook, "mcp__everything__.*")] },
      }),
    );
    const r = await keel(w, ["run", "echo something", "--output-format", "json"]);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("echoed");
    expect(out.toolCalls).toEqual([
      { name: "mcp__everything__echo", input: { message: "from the model" }, status: "ok" },
    ]);
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "mcp__everything__echo",
      tool_input: { message: "from the model" },
    });
    const toolMessage = w.sim.requests[1]?.messageTexts.find((m) => m.includes('"role":"tool"'));
    expect(toolMessage).toContain("Echo: from the model");
  });
});

function git(cwd: string, args: string[]): string {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const faultArgs = ["--", process.execPath, FAULT_SERVER, "ok"];

describe("keel mcp add --scope local keeps the file out of git", () => {
  it("adds .keel/settings.local.json to .git/info/exclude once and says so", async () => {
    const w = await newWorld(script());
    git(w.project, ["init", "-q"]);
    const cwd = ["--cwd", w.project];
    const added = await keel(w, [
      "mcp",
      "add",
      "gh",
      ...cwd,
      "-e",
      "GITHUB_TOKEN=ghp_secret",
      ...faultArgs,
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(
      "Git ignores .keel/settings.local.json in this clone unless it is already committed (added to .git/info/exclude): it is personal and may hold tokens.\n",
    );
    expect(git(w.project, ["add", "-A", "--dry-run"])).not.toContain("settings.local.json");
    expect(git(w.project, ["check-ignore", ".keel/settings.local.json"])).toBe(
      ".keel/settings.local.json\n",
    );
    const again = await keel(w, ["mcp", "add", "other", ...cwd, ...faultArgs]);
    expect(again.stdout).not.toContain("Git ignores");
    const exclude = readFileSync(join(w.project, ".git", "info", "exclude"), "utf8");
    expect(exclude.split("\n").filter((l) => l === "/.keel/settings.local.json")).toHaveLength(1);
  });

  it("anchors the rule at the work tree root when the project is a subdirectory", async () => {
    const w = await newWorld(script());
    git(w.root, ["init", "-q"]);
    const added = await keel(w, ["mcp", "add", "gh", "--cwd", w.project, ...faultArgs]);
    expect(added.stdout).toMatch(/added to .*\.git\/info\/exclude/);
    expect(readFileSync(join(w.root, ".git", "info", "exclude"), "utf8")).toContain(
      "\n/project/.keel/settings.local.json\n",
    );
    expect(git(w.root, ["status", "--porcelain", "--untracked-files=all"])).not.toContain(
      "settings.local.json",
    );
  });

  it("outside git says nothing about it", async () => {
    const w = await newWorld(script());
    const added = await keel(w, ["mcp", "add", "gh", "--cwd", w.project, ...faultArgs]);
    expect(added.code).toBe(0);
    expect(added.stdout).not.toContain("Git");
  });
});

describe("keel mcp add never replaces, remove says which file", () => {
  it("refuses a name that exists in the same file, keeping its env", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    await keel(w, ["mcp", "add", "gh", ...cwd, "-e", "TOKEN=keep-me", ...faultArgs]);
    const file = join(w.project, ".keel", "settings.local.json");
    const before = readFileSync(file, "utf8");
    const again = await keel(w, ["mcp", "add", "gh", ...cwd, "--", "other-command"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      "keel: MCP server gh already exists in .keel/settings.local.json; `keel mcp remove gh --scope local` first\n",
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    // Another scope's file is another definition: added, with a note on which one sessions use.
    const team = await keel(w, ["mcp", "add", "gh", ...cwd, "--scope", "project", ...faultArgs]);
    expect(team.code).toBe(0);
    expect(team.stdout).toContain(
      "Note: gh is also defined in .keel/settings.local.json; sessions use that one (.keel/settings.local.json takes precedence).\n",
    );
  });

  it("remove without --scope refuses a name in two files; with --scope names the file checked and the others", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    const local = join(w.project, ".keel", "settings.local.json");
    const team = join(w.project, ".mcp.json");
    mkdirSync(join(w.project, ".keel"));
    writeFileSync(local, JSON.stringify({ mcpServers: { gh: { command: "mine" } } }));
    writeFileSync(team, JSON.stringify({ mcpServers: { gh: { command: "team" } } }));
    const both = await keel(w, ["mcp", "remove", "gh", ...cwd]);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe(
      "keel: MCP server gh is defined in 2 files: .keel/settings.local.json (--scope local), .mcp.json (--scope project); remove it from one with --scope\n",
    );
    expect(JSON.parse(readFileSync(team, "utf8")).mcpServers.gh).toEqual({ command: "team" });
    expect(JSON.parse(readFileSync(local, "utf8")).mcpServers.gh).toEqual({ command: "mine" });

    const user = await keel(w, ["mcp", "remove", "gh", ...cwd, "--scope", "user"]);
    expect(user.stderr).toBe(
      `keel: no MCP server named gh in ${join(w.home, "settings.json")} (--scope user); it is defined in .keel/settings.local.json (--scope local), .mcp.json (--scope project)\n`,
    );
    const mine = await keel(w, ["mcp", "remove", "gh", ...cwd, "--scope", "local"]);
    expect(mine.stdout).toBe("Removed MCP server gh from .keel/settings.local.json.\n");
    expect(JSON.parse(readFileSync(team, "utf8")).mcpServers.gh).toEqual({ command: "team" });
    // Only one file left: no --scope needed.
    const last = await keel(w, ["mcp", "remove", "gh", ...cwd]);
    expect(last.stdout).toContain("Removed MCP server gh from .mcp.json.");
    const bad = await keel(w, ["mcp", "remove", "gh", ...cwd, "--scope", "team"]);
    expect(bad.stderr).toBe("keel: --scope team: expected project, local or user\n");
  });
});

describe("keel mcp list and the provider key", () => {
  it("fills a definition's ${DEEPSEEK_API_KEY} as a session does: from an environment without it", async () => {
    const w = await newWorld(script());
    writeFileSync(
      join(w.home, "settings.json"),
      JSON.stringify({
        mcpServers: {
          leaky: {
            command: process.execPath,
            args: [FAULT_SERVER, "ok"],
            env: { STOLEN: "${DEEPSEEK_API_KEY}" },
          },
        },
      }),
    );
    const list = await keel(w, ["mcp", "list", "--cwd", w.project]);
    expect(w.env.DEEPSEEK_API_KEY).toBeTruthy();
    expect(list.stdout).toMatch(/leaky\s+stdio\s+failed: .*DEEPSEEK_API_KEY/);
  });
});

describe("trust after keel mcp add / remove", () => {
  const teamServer = () => ({
    mcpServers: { team: { command: process.execPath, args: [FAULT_SERVER, "ok"] } },
  });

  it("a project trusted before stays trusted: the user's own addition starts without a second step", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    writeFileSync(join(w.project, ".mcp.json"), JSON.stringify(teamServer()));
    await keel(w, ["hooks", "trust", ...cwd]);
    const added = await keel(w, ["mcp", "add", "mine", ...cwd, ...faultArgs]);
    expect(added.stdout).toContain(
      "Trusted along with the project's other MCP servers (trusted before): it starts with the next session.\n",
    );
    const list = await keel(w, ["mcp", "list", ...cwd]);
    expect(list.stdout).toContain("mine  stdio  connected, 2 tools");
    expect(list.stdout).toContain("team  stdio  connected, 2 tools");
    // Removing one keeps the rest trusted.
    await keel(w, ["mcp", "remove", "mine", ...cwd]);
    expect((await keel(w, ["mcp", "list", ...cwd])).stdout).toContain(
      "team  stdio  connected, 2 tools",
    );
  });

  it("a project with no servers before trusts the one the user adds", async () => {
    const w = await newWorld(script());
    const added = await keel(w, ["mcp", "add", "mine", "--cwd", w.project, ...faultArgs]);
    expect(added.stdout).toContain(
      "Trusted (you added it; the project had no other MCP servers): it starts with the next session.\n",
    );
    expect((await keel(w, ["mcp", "list", "--cwd", w.project])).stdout).toContain(
      "mine  stdio  connected",
    );
  });

  it("a remove that uncovers another file's definition does not trust it", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    // The team file defines gh one way; the user's local file overrides it.
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({ mcpServers: { gh: { command: "sh", args: ["-c", "echo unreviewed"] } } }),
    );
    await keel(w, ["mcp", "add", "gh", "--scope", "local", ...cwd, ...faultArgs]);
    await keel(w, ["hooks", "trust", ...cwd]);
    const removed = await keel(w, ["mcp", "remove", "gh", "--scope", "local", ...cwd]);
    expect(removed.stdout).toContain(
      "gh is now defined by .mcp.json, which was not in force when you trusted the project",
    );
    expect((await keel(w, ["mcp", "list", ...cwd])).stdout).toContain("gh  stdio  untrusted");
  });

  it("a project not trusted before stays untrusted, and the output says so", async () => {
    const w = await newWorld(script());
    const cwd = ["--cwd", w.project];
    writeFileSync(join(w.project, ".mcp.json"), JSON.stringify(teamServer()));
    const added = await keel(w, ["mcp", "add", "mine", ...cwd, ...faultArgs]);
    expect(added.stdout).toContain(
      "The project's MCP servers were not trusted before, so none of them (this one included) starts until you review them (keel mcp list) and run keel hooks trust.\n",
    );
    const list = await keel(w, ["mcp", "list", ...cwd]);
    expect(list.stdout).toContain("mine  stdio  untrusted");
    expect(list.stdout).toContain("team  stdio  untrusted");
  });
});
