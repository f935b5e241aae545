/**
 * Sub-agent definitions in files, as Claude Code writes them: `.claude/agents/NAME.md` and
 * `.keel/agents/NAME.md` in the project, `~/.claude/agents` and `$KEEL_HOME/agents` for the user,
 * and an enabled plugin's `agents/NAME.md` (offered as `PLUGIN:NAME`, as Claude Code names it).
 * Frontmatter `name`, `description`, optional `tools` (Claude or Keel names) and `model`; the
 * body is the sub-agent's system prompt. They are offered through the task tool
 * (`subagent_type`). A file's `tools` picks which of the session's tools the sub-agent has; it
 * grants nothing: every call still passes the pipeline's rules, mode and hooks. The user's own
 * files win a name clash, with a notice.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { findPluginsSync, keelToolNameFromAny } from "../hooks/index.js";
import { folderIsWhereItAppears, linksStayInside } from "./links-inside.js";
import { byName, listField, oneLine, readFrontmatterFile } from "./skills/frontmatter.js";

/** One agent file. */
export interface AgentFile {
  name: string;
  /** One line: part of the task tool's description (the prefix). */
  description: string;
  source: "user" | "plugin" | "project";
  path: string;
  /** Keel tool names, or null for the task tool's default (the read-only tools). */
  tools: string[] | null;
  /** A model id, or null for the session's model (`inherit`, or a Claude alias like `sonnet`). */
  model: string | null;
  prompt: string;
}

/** Agent files found, and the ones that could not be used. */
export interface AgentFileCatalog {
  agents: AgentFile[];
  problems: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Claude Code's model aliases: they name Anthropic models, so Keel uses the session's model. */
const CLAUDE_MODEL_ALIASES = new Set(["inherit", "sonnet", "opus", "haiku"]);

const frontmatterSchema = z
  .object({
    name: z.string().regex(NAME, "letters, digits, - _ . (at most 64)"),
    description: z.string().min(1, "must not be empty"),
    tools: z.union([z.string(), z.array(z.string())]).optional(),
    model: z.string().min(1).optional(),
  })
  .loose();

/** Plugins' agent files may leave `name` out (Claude Code's plugin docs do): the file's name. */
const pluginFrontmatterSchema = frontmatterSchema.extend({
  name: z.string().regex(NAME, "letters, digits, - _ . (at most 64)").optional(),
});

/** Reads the agent folders: the user's first, then enabled plugins', then the project's. */
export function loadAgentFiles(opts: {
  projectDir: string;
  keelHome: string;
  homeDir: string;
}): AgentFileCatalog {
  const catalog: AgentFileCatalog = { agents: [], problems: [] };
  const seen = new Map<string, AgentFile>();
  for (const folder of agentFolders(opts)) {
    for (const file of markdownFilesIn(folder.dir)) {
      const agent = readAgentFile(opts.projectDir, folder, file, seen, catalog.problems);
      if (agent === null) continue;
      seen.set(agent.name, agent);
      catalog.agents.push(agent);
    }
  }
  catalog.agents.sort(byName);
  return catalog;
}

/** One folder of agent files, where it comes from, and the prefix of its agents' names. */
interface AgentFolder {
  dir: string;
  source: AgentFile["source"];
  prefix?: string;
}

/** The agent folders in the order they are read: a name found first wins. */
function agentFolders(opts: { projectDir: string; keelHome: string; homeDir: string }) {
  const plugins = findPluginsSync(opts).filter((p) => p.enabled);
  const dirs: AgentFolder[] = [
    { dir: join(opts.keelHome, "agents"), source: "user" },
    { dir: join(opts.homeDir, ".claude", "agents"), source: "user" },
    ...plugins.map((p) => ({
      dir: join(p.root, "agents"),
      source: "plugin" as const,
      prefix: `${p.name}:`,
    })),
    { dir: join(opts.projectDir, ".keel", "agents"), source: "project" },
    { dir: join(opts.projectDir, ".claude", "agents"), source: "project" },
  ];
  return dirs;
}

/** The `.md` files of a folder, sorted; none when it cannot be listed. */
function markdownFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

/** One agent file, or null (with the reason in `problems`) when it cannot be used. */
function readAgentFile(
  projectDir: string,
  { dir, source, prefix }: AgentFolder,
  file: string,
  seen: ReadonlyMap<string, AgentFile>,
  problems: string[],
): AgentFile | null {
  const path = join(dir, file);
  // A project's agent file must really be inside its agents folder: its body becomes a
  // prompt sent to the model, so a link to a file in KEEL_HOME or the home would send that
  // file's text (attacks3/32). The user's own and plugins' files may link anywhere.
  if (
    source === "project" &&
    !(folderIsWhereItAppears(projectDir, dir) && linksStayInside(dir, path))
  ) {
    problems.push(`agents: ${path}: a link out of ${dir}; not loaded`);
    return null;
  }
  const read = readFrontmatterFile(
    path,
    source === "plugin" ? pluginFrontmatterSchema : frontmatterSchema,
  );
  if ("problem" in read) {
    problems.push(`agents: ${read.problem}`);
    return null;
  }
  const { meta } = read;
  const name = `${prefix ?? ""}${meta.name ?? file.replace(/\.md$/i, "")}`;
  const winner = seen.get(name);
  if (winner !== undefined) {
    problems.push(
      winner.source !== "project" && source === "project"
        ? `agents: ${name}: your agent ${winner.path} is used; the project's ${path} has the same name and is ignored`
        : `agents: ${name}: ${path} has the same name as ${winner.path} and is ignored`,
    );
    return null;
  }
  const tools = meta.tools === undefined ? null : listField(meta.tools).map(keelToolNameFromAny);
  let model = meta.model === undefined || CLAUDE_MODEL_ALIASES.has(meta.model) ? null : meta.model;
  // A clone's agent file does not choose what its sub-agent costs (attacks5/48): the
  // session's model runs it, as the user chose it.
  if (source === "project" && model !== null) {
    problems.push(
      `agents: ${path}: model: a project's agent file may not choose the model (it sets what the sub-agent costs); the session's model is used`,
    );
    model = null;
  }
  return {
    name,
    description: oneLine(meta.description, 1024),
    source,
    path,
    tools,
    model,
    prompt: read.body.trim(),
  };
}
