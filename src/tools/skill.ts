/**
 * skill (`Skill` in Claude Code): loads an Agent Skill (a folder with a SKILL.md, found at
 * session start by src/agent/skills/load.ts). Cache-first: the list of skills (name +
 * description, sorted by name) is part of this tool's description, so it is pinned into the
 * prefix when the session starts and every session in the project sends the same bytes; a
 * skill's body enters the conversation only as the result of a call (appended, never edited
 * in). Files beside SKILL.md (references, scripts) are read through this tool (`file`), which
 * never leaves the skill's folder, since a user skill's folder is outside the project the read
 * tools are confined to.
 */
import { lstat, readdir, readFile, realpath } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { z } from "zod";
import { defineTool, toolFrame } from "./define.js";
import { guarded, toolError } from "./result.js";
import type { Tool, ToolContext } from "./types.js";

/** One skill the session offers. */
export interface SkillEntry {
  name: string;
  /** One line (whitespace collapsed): part of the prefix. */
  description: string;
  /** The folder holding SKILL.md. */
  dir: string;
  /** Who put it there: only `user` and `plugin` skills' allowed-tools grant anything. */
  source: "user" | "plugin" | "project";
  /** `allowed-tools` from its frontmatter (granted only when the source is not the project). */
  allowedTools: readonly string[];
}

/** The session's skills, as the skill tool needs them. */
export interface SkillCatalogPort {
  skills: readonly SkillEntry[];
  /** Called when a skill's body was handed to the model (its allowed-tools start to apply). */
  onLoad?(skill: SkillEntry): void;
}

/** Bytes of SKILL.md or of a file beside it returned at most. */
export const SKILL_FILE_MAX_BYTES = 256 * 1024;
/** Files beside SKILL.md named in the result at most. */
const LISTED_FILES_MAX = 50;

/** The skill tool's arguments. */
export const skillSchema = z.strictObject({
  skill: z.string().min(1).describe("The skill's name, as listed."),
  file: z
    .string()
    .min(1)
    .optional()
    .describe("A file inside the skill's folder to read (relative), instead of its SKILL.md."),
});
export type SkillInput = z.infer<typeof skillSchema>;

const BASE_DESCRIPTION = `Load a skill: instructions (and files beside them) for a kind of task. When a task matches a skill's description, call this first and follow what it says.
- Call it with {"skill": name}; the result is the skill's instructions, its folder and the files in it.
- Read a file of that folder with {"skill": name, "file": "relative/path"}. Run its scripts with the shell tool by their full path.`;

/** The description with the skills listed (sorted by name, one line each). */
export function skillToolDescription(skills: readonly SkillEntry[]): string {
  const sorted = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = sorted.map((s) => `- ${s.name}: ${s.description}`);
  return `${BASE_DESCRIPTION}\n\nAvailable skills:\n${lines.join("\n")}`;
}

/** The skill tool: its schema, description and facts. */
export const skillTool = defineTool({
  name: "skill",
  description: BASE_DESCRIPTION,
  schema: skillSchema,
  kind: "session",
  primaryArg: "skill",
  pathFields: [],
  sample: { skill: "pdf" },
  offered: (opts) => (opts.skills?.skills.length ?? 0) > 0,
  create: (ctx, opts) => createSkillTool(ctx, opts.skills ?? { skills: [] }),
});

/** Creates the skill tool for a session's skills. */
export function createSkillTool(ctx: ToolContext, catalog: SkillCatalogPort): Tool<SkillInput> {
  return {
    ...toolFrame(skillTool, ctx),
    description: skillToolDescription(catalog.skills),
    run: (input, { readBarred }) =>
      guarded("skill", async () => {
        const entry = catalog.skills.find((s) => s.name === input.skill);
        if (!entry) {
          const names = catalog.skills.map((s) => s.name).sort();
          return toolError(
            `skill: no skill named "${input.skill}". Available: ${names.join(", ") || "(none)"}.`,
          );
        }
        if (input.file !== undefined) return readBeside(entry, input.file, readBarred);
        const skillMd = join(entry.dir, "SKILL.md");
        const barred = barredReason(skillMd, readBarred);
        if (barred !== null) return toolError(`skill: SKILL.md of "${entry.name}" ${barred}.`);
        const text = await readCapped(skillMd);
        const files = await listFiles(entry.dir);
        const beside =
          files.length === 0
            ? ""
            : `\n\nFiles in its folder:\n${files.map((f) => `- ${f}`).join("\n")}`;
        catalog.onLoad?.(entry);
        return {
          content: `Skill "${entry.name}" (folder: ${entry.dir})\n\n${stripFrontmatter(text).trim()}${beside}`,
          isError: false,
          details: { skill: entry.name, dir: entry.dir, source: entry.source },
        };
      }),
  };
}

/**
 * Why a file may not be read for the model, or null: the session's read bar (KEEL_HOME, Read
 * deny and ask rules; it follows links itself), the test read_file passes too, so a skill's
 * folder (or a link in it) cannot hand the model a file a rule keeps from it.
 */
function barredReason(
  path: string,
  readBarred: ((abs: string) => boolean) | undefined,
): string | null {
  return readBarred?.(path)
    ? "is barred from reading (Keel's home or a Read rule covers it)"
    : null;
}

async function readBeside(
  entry: SkillEntry,
  file: string,
  readBarred: ((abs: string) => boolean) | undefined,
) {
  if (isAbsolute(file)) {
    return toolError(`skill: "file" must be relative to the skill's folder, got ${file}.`);
  }
  const abs = resolve(entry.dir, file);
  // The final file, links resolved, must be inside the skill's folder (its links out are not
  // followed: a project skill could otherwise point at ~/.ssh).
  const root = await realpath(entry.dir);
  let real: string;
  try {
    real = await realpath(abs);
  } catch {
    return toolError(`skill: ${file} does not exist in the folder of skill "${entry.name}".`);
  }
  if (real !== root && !real.startsWith(root + sep)) {
    return toolError(`skill: ${file} is outside the folder of skill "${entry.name}".`);
  }
  if (!(await lstat(real)).isFile()) return toolError(`skill: ${file} is not a file.`);
  const barred = barredReason(real, readBarred);
  if (barred !== null) return toolError(`skill: ${file} ${barred}.`);
  return { content: await readCapped(real), isError: false, details: { skill: entry.name, file } };
}

async function readCapped(path: string): Promise<string> {
  const buf = await readFile(path);
  if (buf.length <= SKILL_FILE_MAX_BYTES) return buf.toString("utf8");
  return `${buf.subarray(0, SKILL_FILE_MAX_BYTES).toString("utf8")}\n[… cut at ${SKILL_FILE_MAX_BYTES} bytes of ${buf.length}]`;
}

function stripFrontmatter(text: string): string {
  const fm = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return fm ? text.slice(fm[0].length) : text;
}

/** Files in a skill's folder (sorted, relative, links not followed), SKILL.md left out. */
async function listFiles(dir: string, under = "", depth = 0): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(join(dir, under), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (out.length >= LISTED_FILES_MAX) break;
    const rel = under === "" ? e.name : `${under}/${e.name}`;
    if (e.isDirectory() && depth < 2) out.push(...(await listFiles(dir, rel, depth + 1)));
    else if (e.isFile() && rel !== "SKILL.md") out.push(rel);
  }
  return out.slice(0, LISTED_FILES_MAX);
}
