/**
 * Loads every hook source of design §2.3–2.4 into one snapshot: keel user/project/local,
 * claude, reasonix, `.hooks.json`, and the cagent YAML files named in settings. A file that
 * cannot be read or parsed becomes a located problem; every other source still loads.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type {
  DialectName,
  HookDefinition,
  HookProblem,
  HookSource,
  SourceScope,
} from "../types.js";
import { isRecord } from "../util.js";
import { toDefinition } from "./definition.js";
import type { RawHook, ReadContext } from "./handler.js";
import { zodProblems } from "./handler.js";
import { createLocator, formatField, jsonErrorMessage, jsonErrorPosition } from "./positions.js";
import { readCagentHooks } from "./read-cagent.js";
import { type ReadResult, readNativeHooks } from "./read-native.js";
import { readReasonixHooks } from "./read-reasonix.js";
import { HooksFileSchema, KeelSettingsSchema } from "./schema.js";
import {
  applyDisableRules,
  type CompatFormat,
  compatAllows,
  type DisableRule,
  disableRuleOf,
  type HookSettings,
  mergeSettings,
  type SettingsFile,
} from "./settings.js";

/** Where hooks are looked for. */
export interface HookPaths {
  projectDir: string;
  keelHome: string;
  homeDir: string;
}

export type { HookSettings } from "./settings.js";

/** The content of every file looked at (null: absent), to detect changes on disk. */
export interface FileSnapshot {
  path: string;
  content: string | null;
}

/** Everything read from disk in one pass. */
export interface LoadedHooks {
  paths: HookPaths;
  /** In configuration order; `trusted` is only set for user-level hooks (see trust.ts). */
  hooks: HookDefinition[];
  problems: HookProblem[];
  sources: HookSource[];
  settings: HookSettings;
  files: FileSnapshot[];
}

/** Resolves the directories: `keelHome` defaults to `$KEEL_HOME`, then `~/.keel`. */
export function resolveHookPaths(opts: {
  projectDir: string;
  keelHome?: string;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
}): HookPaths {
  const env = opts.env ?? process.env;
  const homeDir = resolve(opts.homeDir ?? homedir());
  const fromEnv = env.KEEL_HOME && env.KEEL_HOME !== "" ? env.KEEL_HOME : undefined;
  return {
    projectDir: resolve(opts.projectDir),
    keelHome: resolve(opts.keelHome ?? fromEnv ?? join(homeDir, ".keel")),
    homeDir,
  };
}

/** Whether `path` lies inside `dir`. */
export function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function readText(path: string): Promise<{ content: string | null; error?: string }> {
  try {
    return { content: await readFile(path, "utf8") };
  } catch (err) {
    const code = isRecord(err) ? err.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") return { content: null };
    return { content: null, error: err instanceof Error ? err.message : String(err) };
  }
}

function contextFor(source: HookSource, text: string): ReadContext {
  const locate = createLocator(text);
  return {
    path: source.path,
    dialect: source.dialect,
    scope: source.scope,
    locate,
    problem(severity, at, message) {
      const p: HookProblem = { severity, path: source.path, message };
      if (at.length > 0) p.field = formatField(at);
      const pos = locate(at);
      if (pos) {
        p.line = pos.line;
        p.column = pos.column;
      }
      return p;
    },
  };
}

/** Parses JSON text (BOM and blank files tolerated); a syntax error becomes a located problem. */
function parseJson(
  source: HookSource,
  text: string,
): { value: unknown } | { problem: HookProblem } {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(body) };
  } catch (err) {
    const pos = jsonErrorPosition(body, err);
    return {
      problem: {
        severity: "error",
        path: source.path,
        line: pos.line,
        column: pos.column,
        message: `invalid JSON: ${jsonErrorMessage(err)}`,
      },
    };
  }
}

interface Candidate {
  path: string;
  dialect: DialectName;
  scope: SourceScope;
}

/** Reads one hooks file of any dialect. */
function readSource(source: HookSource, text: string): ReadResult & { settings?: unknown } {
  const ctx = contextFor(source, text);
  if (source.dialect === "cagent") {
    const counter = new LineCounter();
    const doc = parseDocument(text, { lineCounter: counter });
    if (doc.errors.length > 0) {
      return {
        hooks: [],
        problems: doc.errors.map((e) => {
          const pos = e.linePos?.[0];
          const p: HookProblem = {
            severity: "error",
            path: source.path,
            // The yaml parser's first line ends with ":" before a code excerpt we do not show.
            message: `invalid YAML: ${(e.message.split("\n", 1)[0] ?? "").replace(/:\s*$/, "")}`,
          };
          if (pos) {
            p.line = pos.line;
            p.column = pos.col;
          }
          return p;
        }),
      };
    }
    return readCagentHooks(doc.toJS(), ctx);
  }
  const parsed = parseJson(source, text);
  if ("problem" in parsed) return { hooks: [], problems: [parsed.problem] };
  const schema = source.dialect === "keel" ? KeelSettingsSchema : HooksFileSchema;
  const checked = schema.safeParse(parsed.value);
  const problems = checked.success ? [] : zodProblems(ctx, [], checked.error);
  if (!isRecord(parsed.value)) return { hooks: [], problems };
  const hooks = parsed.value.hooks;
  const read =
    source.dialect === "reasonix" ? readReasonixHooks(hooks, ctx) : readNativeHooks(hooks, ctx);
  return {
    hooks: read.hooks,
    problems: [...problems, ...read.problems],
    settings: checked.success ? checked.data : undefined,
  };
}

function expandHome(path: string, paths: HookPaths): string {
  if (path === "~") return paths.homeDir;
  if (path.startsWith("~/")) return join(paths.homeDir, path.slice(2));
  return resolve(paths.projectDir, path);
}

/** How a settings file is named in a message: relative inside the project, `~/` at home. */
function showPath(path: string, paths: HookPaths): string {
  if (isInside(paths.projectDir, path)) return relative(paths.projectDir, path);
  if (isInside(paths.homeDir, path)) return `~/${relative(paths.homeDir, path)}`;
  return path;
}

/** Reads every source. Never throws: unreadable and malformed files become problems. */
export async function loadHooks(paths: HookPaths): Promise<LoadedHooks> {
  const { projectDir, keelHome, homeDir } = paths;
  const problems: HookProblem[] = [];
  const files: FileSnapshot[] = [];
  const seen = new Set<string>();
  const raws: { source: HookSource; hooks: RawHook[]; ctx: ReadContext }[] = [];
  const rules: DisableRule[] = [];

  const readAll = async (candidates: Candidate[]) => {
    const fresh = candidates.filter((c) => !seen.has(c.path));
    for (const c of fresh) seen.add(c.path);
    const texts = await Promise.all(fresh.map((c) => readText(c.path)));
    const out: SettingsFile[] = [];
    fresh.forEach((c, i) => {
      const { content, error } = texts[i] ?? { content: null };
      files.push({ path: c.path, content });
      const source: HookSource = { path: c.path, dialect: c.dialect, scope: c.scope };
      if (error !== undefined) {
        problems.push({ severity: "error", path: c.path, message: `cannot read: ${error}` });
        return;
      }
      if (content === null) return;
      const read = readSource(source, content);
      const ctx = contextFor(source, content);
      problems.push(...read.problems);
      raws.push({ source, hooks: read.hooks, ctx });
      out.push({ source, settings: read.settings, ctx });
      const rule = disableRuleOf(source, read.settings);
      if (rule) rules.push(rule);
    });
    return out;
  };

  const keelFiles = await readAll([
    { path: join(keelHome, "settings.json"), dialect: "keel", scope: "user" },
    { path: join(projectDir, ".keel", "settings.json"), dialect: "keel", scope: "project" },
    { path: join(projectDir, ".keel", "settings.local.json"), dialect: "keel", scope: "local" },
  ]);
  const settings = mergeSettings(keelFiles, problems);

  const compatFiles: (Candidate & { dialect: CompatFormat })[] = [
    { path: join(homeDir, ".claude", "settings.json"), dialect: "claude", scope: "user" },
    { path: join(projectDir, ".claude", "settings.json"), dialect: "claude", scope: "project" },
    { path: join(projectDir, ".claude", "settings.local.json"), dialect: "claude", scope: "local" },
    { path: join(projectDir, ".reasonix", "settings.json"), dialect: "reasonix", scope: "project" },
    { path: join(homeDir, ".reasonix", "settings.json"), dialect: "reasonix", scope: "user" },
    { path: join(projectDir, ".hooks.json"), dialect: "tutorial", scope: "project" },
  ];
  const more: Candidate[] = compatFiles.filter((c) => compatAllows(settings, c.dialect, c.scope));
  // A file named by user-level settings is user-level when it lies outside the project and no
  // project file names it too: a project must not make hooks trusted by naming a file.
  const cagentNames = [
    ...settings.cagent.user.map((name) => ({ name, byUser: true })),
    ...settings.cagent.project.map((name) => ({ name, byUser: false })),
  ];
  const cagentPaths = new Map<string, SourceScope>();
  for (const { name, byUser } of cagentNames) {
    const path = expandHome(name, paths);
    const userOnly = byUser && !isInside(projectDir, path) && cagentPaths.get(path) !== "project";
    cagentPaths.set(path, userOnly ? "user" : "project");
  }
  for (const [path, scope] of cagentPaths) more.push({ path, dialect: "cagent", scope });
  await readAll(more);
  for (const path of cagentPaths.keys()) {
    const snap = files.find((f) => f.path === path);
    if (snap && snap.content === null && !problems.some((p) => p.path === path)) {
      problems.push({
        severity: "error",
        path,
        message: "cagent file named in settings compat.cagent does not exist",
      });
    }
  }

  const hooks: HookDefinition[] = [];
  const ids = new Map<string, number>();
  for (const { source, hooks: list, ctx } of raws) {
    for (const raw of list) {
      const def = toDefinition(raw, source, hooks.length, ctx);
      const n = (ids.get(def.id) ?? 0) + 1;
      ids.set(def.id, n);
      if (n > 1) def.id = `${def.id}-${n}`;
      hooks.push(def);
    }
  }
  applyDisableRules(hooks, rules, (path) => showPath(path, paths));
  return {
    paths,
    hooks,
    problems,
    sources: raws.map((r) => r.source),
    settings,
    files,
  };
}
