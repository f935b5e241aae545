/**
 * Agent Skills (agentskills.io): folders holding a SKILL.md whose YAML frontmatter has `name`,
 * `description` and optionally `allowed-tools`. Found at session start in the user's folders
 * ($KEEL_HOME/skills, ~/.claude/skills), the enabled Claude Code plugins' `skills/`, and the
 * project's (.keel/skills, .claude/skills, .agents/skills). The user's own come first and win a
 * name clash (a cloned repository must not replace a skill the user wrote), with a notice. Never
 * throws: a bad SKILL.md is a problem naming the file and field.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";
import { isDirectory, isRegularFile } from "../../base/index.js";
import { findPlugins } from "../../hooks/index.js";
import type { SkillEntry } from "../../tools/index.js";
import { folderIsWhereItAppears, linksStayInside } from "../links-inside.js";
import { byName, listField, oneLine, readFrontmatterFile } from "./frontmatter.js";

/** Skills found, and what could not be used. */
export interface SkillCatalog {
  skills: SkillEntry[];
  problems: string[];
}

/** Characters of a description kept (agentskills.io's limit); it goes into the prefix. */
const DESCRIPTION_MAX = 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

const frontmatterSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().min(1, "must not be empty"),
    "allowed-tools": z.union([z.string(), z.array(z.string())]).optional(),
  })
  .loose();

interface SkillDir {
  dir: string;
  source: SkillEntry["source"];
  /** `plugin:` for a plugin's skills (Claude Code names them so). */
  prefix?: string;
}

/** Where skills are looked for, the user's first. */
async function skillDirs(opts: {
  projectDir: string;
  keelHome: string;
  homeDir: string;
}): Promise<SkillDir[]> {
  const dirs: SkillDir[] = [
    { dir: join(opts.keelHome, "skills"), source: "user" },
    { dir: join(opts.homeDir, ".claude", "skills"), source: "user" },
  ];
  const plugins = await findPlugins(opts);
  for (const p of plugins.filter((p) => p.enabled)) {
    dirs.push({ dir: join(p.root, "skills"), source: "plugin", prefix: `${p.name}:` });
  }
  for (const sub of [".keel", ".claude", ".agents"]) {
    dirs.push({ dir: join(opts.projectDir, sub, "skills"), source: "project" });
  }
  return dirs;
}

/** Reads every skill folder. */
export async function loadSkills(opts: {
  projectDir: string;
  keelHome: string;
  homeDir: string;
}): Promise<SkillCatalog> {
  const catalog: SkillCatalog = { skills: [], problems: [] };
  const seen = new Map<string, SkillEntry>();
  for (const { dir, source, prefix } of await skillDirs(opts)) {
    for (const folder of subfolders(dir)) {
      const path = join(folder, "SKILL.md");
      if (!isRegularFile(path)) continue;
      // A clone's `.claude/skills/x -> ../..` or `SKILL.md -> ~/.keel/config.json` must not make
      // files outside its skills folder the skill's (attacks3/01, 02, 11): a project skill's
      // folder and SKILL.md must really be inside the folder it was found in. The user's own
      // skills may link anywhere; what the skill tool reads still passes the read bar.
      if (
        source === "project" &&
        !(folderIsWhereItAppears(opts.projectDir, dir) && linksStayInside(dir, folder, path))
      ) {
        catalog.problems.push(`skills: ${folder}: a link out of ${dir}; not loaded`);
        continue;
      }
      const read = readFrontmatterFile(path, frontmatterSchema);
      if ("problem" in read) {
        catalog.problems.push(`skills: ${read.problem}`);
        continue;
      }
      const name = `${prefix ?? ""}${read.meta.name?.trim() || basename(folder)}`;
      if (!NAME.test(name)) {
        catalog.problems.push(
          `skills: ${path}: frontmatter name: "${name}" is not a skill name (letters, digits, - _ . :, at most 64)`,
        );
        continue;
      }
      const winner = seen.get(name);
      if (winner !== undefined) {
        catalog.problems.push(
          winner.source !== "project" && source === "project"
            ? `skills: ${name}: your skill in ${winner.dir} is used; the project's ${folder} has the same name and is ignored`
            : `skills: ${name}: ${folder} has the same name as ${winner.dir} and is ignored`,
        );
        continue;
      }
      const entry: SkillEntry = {
        name,
        description: oneLine(read.meta.description, DESCRIPTION_MAX),
        dir: folder,
        source,
        allowedTools: listField(read.meta["allowed-tools"]),
      };
      seen.set(name, entry);
      catalog.skills.push(entry);
    }
  }
  // The list goes into the prefix: the same order on every machine, whatever readdir returns.
  catalog.skills.sort(byName);
  return catalog;
}

function subfolders(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((n) => join(dir, n)).filter((p) => isDirectory(p));
}
