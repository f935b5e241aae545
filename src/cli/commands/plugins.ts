/** `keel plugins list`: the Claude Code plugins and Keel plugin folders whose hooks Keel reads. */

import type { Command } from "commander";
import { sanitizeJson } from "../../base/index.js";
import { findPlugins, resolveHookPaths } from "../../hooks/index.js";
import { field } from "../format/text.js";
import { keelHomeDir, type Output, processOutput } from "./hooks/shared.js";

/** Lists every plugin found, whether it is enabled, and whether it has hooks. */
export async function runPluginsList(opts: { json?: boolean }, out: Output): Promise<number> {
  const paths = resolveHookPaths({ projectDir: process.cwd(), keelHome: keelHomeDir() });
  const plugins = await findPlugins(paths);
  if (opts.json === true) {
    out.stdout(`${sanitizeJson(plugins, 2)}\n`);
    return 0;
  }
  if (plugins.length === 0) {
    out.stdout(
      `No plugins: none installed in ~/.claude/plugins (enabled in ~/.claude/settings.json "enabledPlugins") or in ${paths.keelHome}/plugins/<name>/.\n`,
    );
    return 0;
  }
  for (const p of plugins) {
    const state = p.enabled ? "enabled " : "disabled";
    out.stdout(
      `${state}  ${field(p.id)}  (${p.from === "claude" ? "Claude Code" : "Keel"})  ${field(p.root)}\n`,
    );
  }
  out.stdout("Hooks of enabled plugins are in `keel hooks list` (dialect: plugin).\n");
  return 0;
}

/** Registers `keel plugins`. */
export function register(program: Command): void {
  const plugins = program
    .command("plugins")
    .description("Claude Code plugins (and $KEEL_HOME/plugins) whose hooks Keel reads");
  plugins
    .command("list")
    .description("every plugin found, enabled or not")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      process.exitCode = await runPluginsList(opts, processOutput);
    });
}
