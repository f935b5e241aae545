/**
 * `keel plugins`: the Claude Code plugins and Keel's own (`$KEEL_HOME/plugins/<name>/`), each
 * shown with all its parts (commands, agents, skills, MCP servers, hooks), since enabling a
 * plugin trusts them together; `install` (from a local folder or marketplace file), `enable`,
 * `disable`, `uninstall`.
 */

import type { Command } from "commander";
import { sanitizeJson } from "../../base/index.js";
import {
  findPlugins,
  pluginParts,
  pluginStatePath,
  readPluginState,
  resolveHookPaths,
} from "../../hooks/index.js";
import { field } from "../format/text.js";
import { installPlugin, setPluginEnabled, uninstallPlugin } from "../plugins/install.js";
import { resolvePluginSource } from "../plugins/source.js";
import { keelHomeDir, type Output, processOutput } from "./hooks/shared.js";

function paths() {
  return resolveHookPaths({ projectDir: process.cwd(), keelHome: keelHomeDir() });
}

/** Lists every plugin found, whether it is enabled, and every part it brings. */
export async function runPluginsList(opts: { json?: boolean }, out: Output): Promise<number> {
  const p = paths();
  const plugins = (await findPlugins(p)).map((plugin) => ({
    ...plugin,
    parts: pluginParts(plugin.root, plugin.name),
  }));
  const state = readPluginState(p.keelHome);
  if (opts.json === true) {
    out.stdout(`${sanitizeJson(plugins, 2)}\n`);
    return 0;
  }
  if (!state.ok)
    out.stderr(`keel: ${field(state.problem)}; every plugin is off until it is repaired\n`);
  if (plugins.length === 0) {
    out.stdout(
      `No plugins: none installed in ~/.claude/plugins (enabled in ~/.claude/settings.json "enabledPlugins") or in ${p.keelHome}/plugins/<name>/ (\`keel plugins install FOLDER\`).\n`,
    );
    return 0;
  }
  for (const plugin of plugins) {
    const state = plugin.enabled ? "enabled " : "disabled";
    out.stdout(
      `${state}  ${field(plugin.id)}  (${plugin.from === "claude" ? "Claude Code" : "Keel"})  ${field(plugin.root)}\n`,
    );
    const { parts } = plugin;
    const named = (label: string, names: string[]) =>
      `${label}: ${names.length}${names.length > 0 ? ` (${names.map(field).join(", ")})` : ""}`;
    const servers = parts.mcpServers.map((s) => `plugin_${plugin.name}_${s}`);
    out.stdout(
      `          ${[
        named(
          "commands",
          parts.commands.map((c) => `/${c}`),
        ),
        named("agents", parts.agents),
        named("skills", parts.skills),
        named("MCP servers", servers),
        `hooks: ${parts.hooks}`,
      ].join("; ")}\n`,
    );
    for (const problem of parts.problems) out.stdout(`          problem: ${field(problem)}\n`);
  }
  out.stdout(
    `On/off for Keel is recorded in ${pluginStatePath(p.keelHome)} (\`keel plugins enable|disable ID\`); an enabled plugin's parts are all trusted as yours (docs/security.md).\n`,
  );
  return 0;
}

/** `keel plugins install <folder | marketplace> [name]`. */
export function runPluginsInstall(source: string, name: string | undefined, out: Output): number {
  const p = paths();
  const found = resolvePluginSource(source, name, process.cwd());
  const dest = installPlugin(p.keelHome, found);
  const parts = pluginParts(dest, found.name);
  out.stdout(
    `Installed ${field(found.name)}${found.version ? ` ${field(found.version)}` : ""} in ${field(dest)} (enabled).\n` +
      `It brings ${parts.commands.length} command(s), ${parts.agents.length} agent(s), ${parts.skills.length} skill(s), ${parts.mcpServers.length} MCP server(s) and ${parts.hooks} hook(s), all trusted as yours from the next session: its hooks and MCP servers run without asking. \`keel plugins disable ${field(found.name)}\` turns it off.\n`,
  );
  return 0;
}

/** `keel plugins enable|disable <id>`. */
export function runPluginsSwitch(id: string, on: boolean, out: Output): number {
  const p = paths();
  const plugin = setPluginEnabled(p, id, on);
  out.stdout(
    `${field(plugin.id)}: ${on ? "enabled" : "disabled"} for Keel from the next session (recorded in ${field(pluginStatePath(p.keelHome))}${plugin.from === "claude" ? "; ~/.claude is not changed" : ""}).\n`,
  );
  return 0;
}

/** `keel plugins uninstall <id>`. */
export function runPluginsUninstall(id: string, out: Output): number {
  const plugin = uninstallPlugin(paths(), id);
  out.stdout(`Uninstalled ${field(plugin.id)} (removed ${field(plugin.root)}).\n`);
  return 0;
}

/** Registers `keel plugins`. */
export function register(program: Command): void {
  const plugins = program
    .command("plugins")
    .description(
      "Claude Code plugins and Keel's own ($KEEL_HOME/plugins): their commands, agents, skills, MCP servers and hooks",
    );
  plugins
    .command("list")
    .description("every plugin found, enabled or not, with all its parts")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      process.exitCode = await runPluginsList(opts, processOutput);
    });
  plugins
    .command("install")
    .description(
      "copy a plugin from a local folder, or from a local marketplace (.claude-plugin/marketplace.json, the file or its folder; NAME picks one), into $KEEL_HOME/plugins/<name>/ and enable it",
    )
    .argument("<source>", "a plugin folder or a marketplace file or folder")
    .argument("[name]", "the plugin to install from a marketplace")
    .action((source: string, name: string | undefined) => {
      process.exitCode = runPluginsInstall(source, name, processOutput);
    });
  plugins
    .command("enable")
    .description(
      "turn a plugin on for Keel (recorded in $KEEL_HOME/plugins.json; ~/.claude is not changed)",
    )
    .argument("<id>", "a plugin id from `keel plugins list`")
    .action((id: string) => {
      process.exitCode = runPluginsSwitch(id, true, processOutput);
    });
  plugins
    .command("disable")
    .description("turn a plugin off for Keel: none of its parts load")
    .argument("<id>", "a plugin id from `keel plugins list`")
    .action((id: string) => {
      process.exitCode = runPluginsSwitch(id, false, processOutput);
    });
  plugins
    .command("uninstall")
    .description("remove a plugin `keel plugins install` put in $KEEL_HOME/plugins")
    .argument("<id>", "a plugin id from `keel plugins list`")
    .action((id: string) => {
      process.exitCode = runPluginsUninstall(id, processOutput);
    });
}
