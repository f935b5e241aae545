/**
 * The tool names a permission rule may name (`Bash(git *)`, `Read(./.env)`, `read_file`), and
 * the Keel tools each covers, derived from the tool definitions (src/tools/registry.ts) and the
 * Claude dialect's tool names (src/hooks/dialects/claude/tools.ts): a new tool gets its rule
 * names with no entry here.
 */
import { DIALECTS } from "../../hooks/index.js";
import { BUILTIN_TOOL_DEFINITIONS } from "../../tools/index.js";

/** What a rule of one name applies to, and whether its specifier is a command or a path. */
export interface RuleToolEntry {
  tools: string[];
  /** `name`: the specifier matches one input field's value (`Skill(release-notes)`);
   *  `domain`: a URL's host (`WebFetch(domain:example.com)`). */
  spec: "command" | "path" | "name" | "domain" | "none";
  /** The input field a `name` specifier matches. */
  field?: string;
}

/** Rule name → the Keel tools it covers. */
export type RuleToolMap = Readonly<Record<string, RuleToolEntry>>;

/** Claude Code names that are another of its tools' rules under a second name. */
const CLAUDE_ALIASES: Readonly<Record<string, string>> = { MultiEdit: "Edit" };

/** The task tool (src/agent/task-tool.ts), named as Claude names its sub-agent tool. */
const TASK_ENTRY: RuleToolEntry = { tools: ["task"], spec: "none" };

/** Builds the map: each tool under its Keel and its Claude name, plus Claude's group rules. */
export function buildRuleToolMap(defs = BUILTIN_TOOL_DEFINITIONS): RuleToolMap {
  const map: Record<string, RuleToolEntry> = {};
  const claude = DIALECTS.claude;
  for (const def of defs) {
    // A session tool (skill, todo_write) names no file and runs no command: its specifier
    // matches its primary argument as a name (`Skill(pdf)`, `Skill(team-*)`).
    const entry: RuleToolEntry =
      def.kind === "session"
        ? { tools: [def.name], spec: "name", field: def.primaryArg }
        : {
            tools: [def.name],
            spec: def.ruleSpec ?? (def.pathFields.includes(def.primaryArg) ? "path" : "command"),
          };
    map[def.name] = entry;
    map[claude.toolName(def.name)] = entry;
  }
  // Claude applies Read rules to every tool that reads files (Grep, Glob, LS), and Edit rules
  // to every tool that edits files (Write too).
  const readTool = defs.find((d) => d.readOnly && claude.toolName(d.name) === "Read");
  const editTool = defs.find((d) => d.kind === "write" && claude.toolName(d.name) === "Edit");
  if (readTool) {
    // Tools that read files; shell_output and kill_shell (read-only, no path) are not among them.
    map.Read = {
      tools: defs.filter((d) => d.readOnly && d.pathFields.length > 0).map((d) => d.name),
      spec: "path",
    };
  }
  if (editTool) {
    map.Edit = { tools: defs.filter((d) => d.kind === "write").map((d) => d.name), spec: "path" };
  }
  for (const [alias, of] of Object.entries(CLAUDE_ALIASES)) {
    const target = defs.find((d) => claude.toolName(d.name) === of);
    if (target) map[alias] = { tools: [target.name], spec: "path" };
  }
  for (const name of ["Task", "Agent", "task"]) map[name] = TASK_ENTRY;
  return map;
}

/** The map for the built-in tools. */
export const RULE_TOOL_MAP: RuleToolMap = buildRuleToolMap();
