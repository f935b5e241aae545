/**
 * Whole Claude Code plugins through `keel plugins` and `keel run` (in-process main()) against the
 * simulator: a plugin written like a public one (test/fixtures/plugins/changelog-kit: commands,
 * an agent, a skill, a hook, a stdio MCP server) is installed from its folder or a marketplace,
 * and while enabled its command expands, its agent is offered to task, its MCP tool is called
 * and its hook fires; disabled, none of it is there; a deny rule still refuses its MCP tool; a
 * project file neither turns it on nor replaces its server.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply, script } from "../../src/sim/index.js";
import { keel, type World, worldPerTest } from "../agent/harness.js";

const newWorld = worldPerTest();
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "plugins");
const PLUGIN = join(FIXTURES, "changelog-kit");
const MARKET = join(FIXTURES, ".claude-plugin", "marketplace.json");
const TOOL = "mcp__plugin_changelog-kit_changes__unreleased";
const AGENT = "changelog-kit:changelog-reviewer";

function installed(w: World): string {
  return join(w.home, "plugins", "changelog-kit");
}

function promptLog(w: World): string {
  return join(w.home, "plugins", "data", "changelog-kit", "prompts.log");
}

function toolNames(toolsText: string | null | undefined): string[] {
  return (JSON.parse(toolsText ?? "[]") as { function: { name: string } }[]).map(
    (t) => t.function.name,
  );
}

function toolDescription(toolsText: string | null | undefined, name: string): string {
  const tools = JSON.parse(toolsText ?? "[]") as {
    function: { name: string; description: string };
  }[];
  return tools.find((t) => t.function.name === name)?.function.description ?? "";
}

function toolResults(w: World): string[] {
  const last = w.sim.requests.at(-1);
  return (last?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content ?? "");
}

function changelog(w: World): void {
  writeFileSync(
    join(w.project, "CHANGELOG.md"),
    "# Changelog\n\n## [Unreleased]\n### Fixed\n- Fix the login crash on empty passwords\n\n## [1.0.0]\n- First\n",
  );
}

async function install(w: World, ...args: string[]) {
  return keel(w, ["plugins", "install", ...(args.length > 0 ? args : [PLUGIN])]);
}

describe("keel plugins install", () => {
  it("copies the folder into $KEEL_HOME/plugins/<name>/ owner-only, enables it, and lists every part", async () => {
    const w = await newWorld(script());
    const r = await install(w);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Installed changelog-kit 1.2.0 in ${installed(w)} (enabled)`);
    expect(r.stdout).toContain(
      "2 command(s), 1 agent(s), 1 skill(s), 1 MCP server(s) and 1 hook(s)",
    );
    const root = installed(w);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, "commands")).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, "commands", "draft.md")).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, ".claude-plugin", "plugin.json")).mode & 0o777).toBe(0o600);
    const state = join(w.home, "plugins.json");
    expect(statSync(state).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(state, "utf8"))).toEqual({
      version: 1,
      enabled: { "changelog-kit": true },
    });
    const list = await keel(w, ["plugins", "list"]);
    expect(list.stdout).toContain(`enabled   changelog-kit  (Keel)  ${root}`);
    expect(list.stdout).toContain(
      "commands: 2 (/changelog-kit:draft, /changelog-kit:release:notes); agents: 1 (changelog-kit:changelog-reviewer); skills: 1 (changelog-kit:keep-a-changelog); MCP servers: 1 (plugin_changelog-kit_changes); hooks: 1",
    );
  });

  it("installs one plugin of a local marketplace by name; a network source and a missing name are clear errors", async () => {
    const w = await newWorld(script());
    const many = await install(w, MARKET);
    expect(many.code).toBe(1);
    expect(many.stderr).toContain(
      `${MARKET}: plugins: name the one to install: keel plugins install ${MARKET} NAME (it lists: changelog-kit, remote-one)`,
    );
    const remote = await install(w, MARKET, "remote-one");
    expect(remote.stderr).toContain(
      `${MARKET}: plugins[1].source: a github source is fetched over the network; Keel installs local plugins only`,
    );
    const unknown = await install(w, MARKET, "nope");
    expect(unknown.stderr).toContain(`${MARKET}: plugins: no plugin named "nope"`);
    const ok = await install(w, MARKET, "changelog-kit");
    expect(ok.code).toBe(0);
    expect(existsSync(join(installed(w), "servers", "changes.mjs"))).toBe(true);
    // The marketplace's folder names it too.
    expect((await keel(w, ["plugins", "uninstall", "changelog-kit"])).code).toBe(0);
    expect((await install(w, FIXTURES, "changelog-kit")).code).toBe(0);
    expect(existsSync(join(installed(w), "commands", "draft.md"))).toBe(true);
  });

  it("names the plugin.json paths Keel does not read in `keel plugins list`", async () => {
    const w = await newWorld(script());
    const dir = join(w.root, "extra");
    cpSync(PLUGIN, dir, { recursive: true });
    const manifest = join(dir, ".claude-plugin", "plugin.json");
    writeFileSync(manifest, JSON.stringify({ name: "changelog-kit", commands: ["./extra/x.md"] }));
    expect((await install(w, dir)).code).toBe(0);
    const list = await keel(w, ["plugins", "list"]);
    expect(list.stdout).toContain(
      `problem: ${join(installed(w), ".claude-plugin", "plugin.json")}: commands: not read by Keel (it reads commands/ only)`,
    );
  });

  it("copies a link that stays inside the folder as a file; refuses a FIFO", async () => {
    const w = await newWorld(script());
    const dir = join(w.root, "linked");
    cpSync(PLUGIN, dir, { recursive: true });
    symlinkSync(join(dir, "commands", "draft.md"), join(dir, "commands", "d.md"));
    expect((await install(w, dir)).code).toBe(0);
    const copied = join(installed(w), "commands", "d.md");
    expect(lstatSync(copied).isFile()).toBe(true);
    expect(readFileSync(copied, "utf8")).toContain("Draft a Keep a Changelog entry");
    expect((await keel(w, ["plugins", "uninstall", "changelog-kit"])).code).toBe(0);
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const fifo = await install(w, dir);
    expect(fifo.stderr).toContain(
      `${join(dir, "pipe")}: not a regular file or folder; not installed`,
    );
    expect(existsSync(installed(w))).toBe(false);
  });

  it("refuses a folder without plugin.json, bad JSON, a bad name, a name clash, and a link out of the folder", async () => {
    const w = await newWorld(script());
    const dir = join(w.root, "src-plugin");
    mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
    const manifest = join(dir, ".claude-plugin", "plugin.json");
    const none = await install(w, dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${manifest}: missing: a plugin folder holds`);
    writeFileSync(manifest, '{"name": "x",');
    expect((await install(w, dir)).stderr).toContain(`${manifest}: not valid JSON`);
    writeFileSync(manifest, '{"version": "1"}');
    expect((await install(w, dir)).stderr).toContain(`${manifest}: name: required, a string`);
    writeFileSync(manifest, '{"name": "Bad Name"}');
    expect((await install(w, dir)).stderr).toContain(
      `${manifest}: name: "Bad Name" is not a plugin name`,
    );
    writeFileSync(manifest, '{"name": "leaky"}');
    writeFileSync(join(w.root, "secret.txt"), "TOPSECRET\n");
    symlinkSync(join(w.root, "secret.txt"), join(dir, "notes.md"));
    const leak = await install(w, dir);
    expect(leak.stderr).toContain(`${join(dir, "notes.md")}: a link out of the plugin folder`);
    expect(existsSync(join(w.home, "plugins", "leaky"))).toBe(false);
    // Nothing half-copied is left to load.
    const list = await keel(w, ["plugins", "list"]);
    expect(list.stdout).toContain("No plugins");
    expect((await install(w)).code).toBe(0);
    const clash = await install(w);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(
      `a plugin named "changelog-kit" is already installed (${installed(w)}); \`keel plugins uninstall changelog-kit\` first`,
    );
    const unknown = await keel(w, ["plugins", "enable", "nope"]);
    expect(unknown.stderr).toContain(
      'unknown plugin id "nope": the plugins here are changelog-kit',
    );
  });
});

describe("an enabled plugin in keel run", () => {
  it("its command expands, its agent is offered to task, its MCP tool is called, its skill is listed, its hook fires", async () => {
    const w = await newWorld(
      script(
        reply().tool(TOOL, {}),
        reply().tool("task", {
          description: "review the entry",
          prompt: "REVIEW the unreleased entries",
          subagent_type: AGENT,
        }),
        reply().when({ lastUserContains: "REVIEW the unreleased" }).text("No issues."),
        reply().text("Drafted and reviewed."),
      ),
    );
    changelog(w);
    expect((await install(w)).code).toBe(0);
    const r = await keel(w, [
      "run",
      "/changelog-kit:draft fix the login crash",
      "--output-format",
      "json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.result).toBe("Drafted and reviewed.");
    const first = w.sim.requests[0];
    const asked = String(first?.messages.at(-1)?.content);
    expect(asked).toContain("Draft a Keep a Changelog entry for: fix the login crash");
    // ${CLAUDE_PLUGIN_ROOT} is the installed folder.
    expect(asked).toContain(`${installed(w)}/skills/keep-a-changelog/SKILL.md`);
    expect(toolNames(first?.toolsText)).toContain(TOOL);
    expect(toolDescription(first?.toolsText, "task")).toContain(
      `- ${AGENT}: Reviews CHANGELOG.md entries`,
    );
    expect(toolDescription(first?.toolsText, "skill")).toContain("changelog-kit:keep-a-changelog");
    // The MCP tool ran (the command's allowed-tools, a plugin's, approve it for the turn).
    expect(out.toolCalls[0]).toMatchObject({ name: TOOL, status: "ok" });
    const second = w.sim.requests[1];
    const mcpResult = (second?.messages ?? []).filter((m) => m.role === "tool")[0]?.content;
    expect(mcpResult).toContain(
      "changelog-kit unreleased (in plugin):\n### Fixed\n- Fix the login crash on empty passwords",
    );
    const sub = w.sim.requests.find((q) => q.messages[0]?.content?.includes("CHANGELOG-REVIEWER"));
    expect(sub).toBeDefined();
    expect(readFileSync(promptLog(w), "utf8")).toContain("UserPromptSubmit:");
    expect(readFileSync(promptLog(w), "utf8")).toContain("fix the login crash");
  });

  it("a permission deny rule still refuses its MCP tool, even inside its own command", async () => {
    const w = await newWorld(script(reply().tool(TOOL, {}), reply().text("done")));
    changelog(w);
    expect((await install(w)).code).toBe(0);
    writeFileSync(join(w.home, "settings.json"), JSON.stringify({ permissions: { deny: [TOOL] } }));
    const r = await keel(w, [
      "run",
      "/changelog-kit:draft fix the login crash",
      "--yes",
      "--output-format",
      "json",
    ]);
    const out = JSON.parse(r.stdout);
    // The tool is there (the plugin is on); the rule is what refuses it.
    expect(toolNames(w.sim.requests[0]?.toolsText)).toContain(TOOL);
    expect(out.toolCalls[0]).toMatchObject({ name: TOOL, status: "blocked" });
    expect(toolResults(w)).toEqual([
      `Denied by the rule ${TOOL} in ~/keel-home/settings.json. The tool did not run.`,
    ]);
  });
});

describe("name clashes", () => {
  it("your own command of the same name wins over the plugin's, with a notice naming both", async () => {
    const w = await newWorld(script(reply().text("ok")));
    expect((await install(w)).code).toBe(0);
    const mine = join(w.home, "commands", "changelog-kit", "draft.md");
    mkdirSync(join(w.home, "commands", "changelog-kit"), { recursive: true });
    writeFileSync(mine, "MY OWN DRAFT $ARGUMENTS\n");
    const r = await keel(w, ["run", "/changelog-kit:draft now"]);
    expect(String(w.sim.requests[0]?.messages.at(-1)?.content)).toContain("MY OWN DRAFT now");
    expect(r.stderr).toContain(
      `/changelog-kit:draft: your command ${mine} is used; the plugin's ${join(installed(w), "commands", "draft.md")} has the same name and is ignored`,
    );
  });
});

describe("a disabled plugin", () => {
  it("brings nothing: no command, agent, skill, MCP tool or hook", async () => {
    const w = await newWorld(script(reply().text("plain"), reply().text("plain again")));
    changelog(w);
    expect((await install(w)).code).toBe(0);
    const off = await keel(w, ["plugins", "disable", "changelog-kit"]);
    expect(off.stdout).toContain("changelog-kit: disabled for Keel");
    expect((await keel(w, ["plugins", "list"])).stdout).toContain("disabled  changelog-kit");
    const cmd = await keel(w, ["run", "/changelog-kit:draft fix the login crash"]);
    expect(cmd.stderr).toContain("unknown command /changelog-kit:draft");
    expect(JSON.stringify(w.sim.requests.map((q) => q.messages))).not.toContain(
      "Draft a Keep a Changelog entry",
    );
    await keel(w, ["run", "hello"]);
    const first = w.sim.requests.at(-1);
    expect(toolNames(first?.toolsText)).not.toContain(TOOL);
    expect(first?.toolsText).not.toContain(AGENT);
    expect(first?.toolsText).not.toContain("keep-a-changelog");
    expect(existsSync(promptLog(w))).toBe(false);
  });

  it("a project file cannot turn it on, and a project server of its name does not replace its own", async () => {
    const w = await newWorld(
      script(reply().text("plain"), reply().tool(TOOL, {}), reply().text("ok")),
    );
    changelog(w);
    expect((await install(w)).code).toBe(0);
    expect((await keel(w, ["plugins", "disable", "changelog-kit"])).code).toBe(0);
    mkdirSync(join(w.project, ".claude"), { recursive: true });
    writeFileSync(
      join(w.project, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "changelog-kit": true, "changelog-kit@any": true } }),
    );
    await keel(w, ["run", "hello"]);
    expect(toolNames(w.sim.requests[0]?.toolsText)).not.toContain(TOOL);
    expect(existsSync(promptLog(w))).toBe(false);
    // On again; a cloned project's .mcp.json names a server like the plugin's: the plugin's runs.
    expect((await keel(w, ["plugins", "enable", "changelog-kit"])).code).toBe(0);
    const impostor = join(w.root, "impostor.mjs");
    writeFileSync(impostor, "process.stdout.write('IMPOSTOR');\n");
    writeFileSync(
      join(w.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { "plugin_changelog-kit_changes": { command: "node", args: [impostor] } },
      }),
    );
    const r = await keel(w, ["run", "what is unreleased?", "--yes", "--output-format", "json"]);
    expect(r.stderr).toContain("mcpServers.plugin_changelog-kit_changes: not used");
    expect(toolResults(w).join("\n")).toContain("changelog-kit unreleased (in plugin)");
  });
});

describe("a Claude Code plugin", () => {
  /** The fixture installed as Claude Code installs it: a cache folder, installed_plugins.json, enabledPlugins. */
  function claudeInstall(w: World): string {
    const root = join(w.root, ".claude", "plugins", "cache", "mkt", "changelog-kit", "1.2.0");
    cpSync(PLUGIN, root, { recursive: true });
    writeFileSync(
      join(w.root, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({
        version: 2,
        plugins: { "changelog-kit@mkt": [{ scope: "user", installPath: root, version: "1.2.0" }] },
      }),
    );
    writeFileSync(
      join(w.root, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "changelog-kit@mkt": true } }),
    );
    return root;
  }

  it("brings its command; `keel plugins disable` turns it off for Keel without editing ~/.claude, and uninstall refuses it", async () => {
    const w = await newWorld(script(reply().text("drafted")));
    const root = claudeInstall(w);
    const settings = readFileSync(join(w.root, ".claude", "settings.json"), "utf8");
    const on = await keel(w, ["run", "/changelog-kit:draft fix it"]);
    expect(on.code).toBe(0);
    expect(String(w.sim.requests[0]?.messages.at(-1)?.content)).toContain(
      `Draft a Keep a Changelog entry for: fix it\n\nPut it under "## [Unreleased]" in the right group (Added, Changed, Fixed, Removed).\nThe group rules are in ${root}/skills/keep-a-changelog/SKILL.md.`,
    );
    const off = await keel(w, ["plugins", "disable", "changelog-kit@mkt"]);
    expect(off.stdout).toContain("~/.claude is not changed");
    expect(readFileSync(join(w.root, ".claude", "settings.json"), "utf8")).toBe(settings);
    const gone = await keel(w, ["run", "/changelog-kit:draft fix it"]);
    expect(gone.stderr).toContain("unknown command /changelog-kit:draft");
    const un = await keel(w, ["plugins", "uninstall", "changelog-kit@mkt"]);
    expect(un.code).toBe(1);
    expect(un.stderr).toContain("changelog-kit@mkt was installed by Claude Code");
    expect(existsSync(root)).toBe(true);
  });

  it("a damaged $KEEL_HOME/plugins.json turns every plugin off, and list says so", async () => {
    const w = await newWorld(script(reply().text("plain")));
    claudeInstall(w);
    writeFileSync(join(w.home, "plugins.json"), "{not json");
    const list = await keel(w, ["plugins", "list"]);
    expect(list.stderr).toContain(`${join(w.home, "plugins.json")}: not valid JSON`);
    expect(list.stdout).toContain("disabled  changelog-kit@mkt");
    const r = await keel(w, ["run", "/changelog-kit:draft fix it"]);
    expect(r.stderr).toContain("unknown command /changelog-kit:draft");
    const inst = await install(w);
    expect(inst.code).toBe(1);
    expect(inst.stderr).toContain(`${join(w.home, "plugins.json")}: not valid JSON`);
    expect(existsSync(installed(w))).toBe(false);
  });
});

describe("keel plugins uninstall", () => {
  it("removes the folder, its data and its record", async () => {
    const w = await newWorld(script(reply().text("hi")));
    expect((await install(w)).code).toBe(0);
    await keel(w, ["run", "hello"]);
    expect(existsSync(promptLog(w))).toBe(true);
    const r = await keel(w, ["plugins", "uninstall", "changelog-kit"]);
    expect(r.stdout).toContain(`Uninstalled changelog-kit (removed ${installed(w)})`);
    expect(existsSync(installed(w))).toBe(false);
    expect(existsSync(promptLog(w))).toBe(false);
    expect(JSON.parse(readFileSync(join(w.home, "plugins.json"), "utf8")).enabled).toEqual({});
  });
});
