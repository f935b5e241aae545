/** Claude Code plugins (`hooks/hooks.json` of an installed, enabled plugin in ~/.claude/plugins). */
import { join } from "node:path";
import type { CorpusCase } from "../harness.js";

const ID = "security-guidance@claude-plugins-official";

/** Claude Code's record of the installed plugin and the user setting that enables it. */
function installed(project: string): Record<string, string> {
  const home = join(project, "..", "home");
  const installPath = join(
    home,
    ".claude/plugins/cache/claude-plugins-official/security-guidance/1.0.0",
  );
  return {
    "~/.claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { [ID]: [{ scope: "user", installPath, version: "1.0.0" }] },
    }),
    "~/.claude/settings.json": JSON.stringify({ enabledPlugins: { [ID]: true } }),
  };
}

const base = {
  dialect: "plugin",
  fixture: "security-reminder",
  mirrors: "security-guidance style plugin PreToolUse hook",
  setup: installed,
} as const;

export const PLUGIN: CorpusCase[] = [
  {
    ...base,
    name: "a risky pattern in a write is blocked once, with state kept in CLAUDE_PLUGIN_DATA",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "src/run.ts", content: "export const run = (s: string) => eval(s);" },
    expect: {
      exit: 2,
      decision: "block",
      reason: ["Security reminder for run.ts: eval() runs arbitrary code"],
      files: {
        "~/.claude/plugins/data/security-guidance-claude-plugins-official/warned.json": [
          "/src/run.ts:eval(",
        ],
      },
    },
  },
  {
    ...base,
    name: "a harmless write passes",
    event: "PreToolUse",
    tool: "write_file",
    input: { path: "src/index.ts", content: "export const x = 1;" },
    expect: { exit: 0, decision: "pass", outcomes: ["pass"] },
  },
];
