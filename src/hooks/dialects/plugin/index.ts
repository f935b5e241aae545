/**
 * Claude Code plugins: the `hooks/hooks.json` of every installed, enabled plugin (Claude
 * Code's plugin folder, and Keel's `$KEEL_HOME/plugins/<name>/`). The file is Claude Code's
 * format; `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are expanded in commands and
 * set in the environment. A plugin the user installed is user-level (trusted). Which plugins are
 * on is find.ts's answer, shared with the plugin's other parts (commands, agents, skills, MCP).
 */
import { join } from "node:path";
import { claudeDialect } from "../claude/index.js";
import { defineDialect } from "../types.js";
import { findPlugins } from "./find.js";

/** Hooks of installed, enabled plugins (Claude Code's rules for everything but where). */
export const pluginDialect = defineDialect({
  ...claudeDialect,
  name: "plugin",
  label: "Claude Code plugin",
  async files(paths) {
    const plugins = (await findPlugins(paths)).filter((p) => p.enabled);
    return plugins.map((p) => ({
      path: join(p.root, "hooks", "hooks.json"),
      scope: "user" as const,
      env: { CLAUDE_PLUGIN_ROOT: p.root, CLAUDE_PLUGIN_DATA: p.dataDir },
    }));
  },
  compatSwitch: true,
  honoursDisableAll: false,
  // Plugin hooks have seen Keel's own tool_response so far (the shapes were chosen by dialect
  // name, and this one is "plugin"); kept as it was, though Claude Code gives them its shape.
  toolResponses: {},
});
