/** Hooks of Claude Code plugins (installed + enabled) and of Keel's plugin folder. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runPluginsList } from "../../src/cli/commands/plugins.js";
import { resolveHookPaths } from "../../src/hooks/config/load.js";
import { findPlugins } from "../../src/hooks/dialects/plugin/find.js";
import { createHookEngine } from "../../src/hooks/engine.js";
import { buildPayload } from "../../src/hooks/payload.js";
import { makeWorld, type World, worldOptions } from "./helpers.js";

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(() => w.cleanup());

/** Installs a Claude Code plugin whose PreToolUse hook records its env and blocks. */
function installClaudePlugin(id: string, enabled: boolean): string {
  const root = join(w.home, ".claude", "plugins", "cache", "mkt", id.split("@")[0] ?? id, "1.0.0");
  w.write(
    `${root.slice(w.root.length + 1)}/scripts/guard.sh`,
    '#!/bin/sh\ncat >/dev/null\necho "$CLAUDE_PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA|$1" >&2\nexit 2\n',
    { executable: true },
  );
  w.json(`${root.slice(w.root.length + 1)}/hooks/hooks.json`, {
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's plugin variables, expanded by Keel
              command: "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh ${CLAUDE_PLUGIN_DATA}",
            },
          ],
        },
      ],
    },
  });
  w.json("home/.claude/plugins/installed_plugins.json", {
    version: 2,
    plugins: { [id]: [{ scope: "user", installPath: root, version: "1.0.0" }] },
  });
  w.json("home/.claude/settings.json", { enabledPlugins: { [id]: enabled } });
  return root;
}

const pre = () =>
  buildPayload("PreToolUse", { projectDir: w.project, tool: "shell", input: { command: "ls" } });

describe("Claude Code plugins", () => {
  it("an enabled plugin's hooks run with CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA expanded and set", async () => {
    const root = installClaudePlugin("guard@mkt", true);
    const engine = await createHookEngine(worldOptions(w));
    const hook = engine.listing().hooks[0];
    expect(hook).toMatchObject({ source: { dialect: "plugin", scope: "user" }, trusted: true });
    const d = await engine.fire({ event: "PreToolUse", payload: pre() });
    expect(d.decision).toBe("block");
    const data = join(w.home, ".claude", "plugins", "data", "guard-mkt");
    expect(d.reason).toBe(`${root}|${data}|${data}`);
  });

  it("a disabled plugin's hooks are not read", async () => {
    installClaudePlugin("guard@mkt", false);
    const engine = await createHookEngine(worldOptions(w));
    expect(engine.listing().hooks).toEqual([]);
    const found = await findPlugins(resolveHookPaths(worldOptions(w)));
    expect(found).toMatchObject([{ id: "guard@mkt", enabled: false }]);
  });

  it("a folder in $KEEL_HOME/plugins is a plugin, and `keel plugins list` shows both", async () => {
    installClaudePlugin("guard@mkt", true);
    const log = join(w.root, "keel-plugin.log");
    w.json("keel/plugins/audit/hooks/hooks.json", {
      hooks: {
        SessionStart: [
          { hooks: [{ type: "command", command: `echo "$CLAUDE_PLUGIN_ROOT" > ${log}` }] },
        ],
      },
    });
    const engine = await createHookEngine(worldOptions(w));
    await engine.fire({
      event: "SessionStart",
      payload: buildPayload("SessionStart", { projectDir: w.project }),
    });
    expect(readFileSync(log, "utf8").trim()).toBe(join(w.keelHome, "plugins", "audit"));

    const printed: string[] = [];
    const saved = { HOME: process.env.HOME, KEEL_HOME: process.env.KEEL_HOME };
    process.env.HOME = w.home;
    process.env.KEEL_HOME = w.keelHome;
    try {
      await runPluginsList({}, { stdout: (t) => printed.push(t), stderr: () => {} });
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.KEEL_HOME === undefined) delete process.env.KEEL_HOME;
      else process.env.KEEL_HOME = saved.KEEL_HOME;
    }
    const text = printed.join("");
    expect(text).toContain("enabled   guard@mkt  (Claude Code)");
    expect(text).toContain("enabled   audit  (Keel)");
  });
});
