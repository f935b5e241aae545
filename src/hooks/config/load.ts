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

/** Where hooks are looked for. */
export interface HookPaths {
  projectDir: string;
  keelHome: string;
  homeDir: string;
}

/** Settings the engine honours, merged over the keel files (later files win). */
export interface HookSettings {
  compat: { claude: boolean; reasonix: boolean; tutorial: boolean; cagent: string[] };
  /** The cagent files named only by user-level settings (all others need project trust). */
  cagentFromUser: string[];
  /** From user-level settings only: http hooks may reach private networks. */
  allowPrivateNetworks: boolean;
}

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
            message: `invalid YAML: ${e.message.split("\n", 1)[0]}`,
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

function mergeSettings(
  files: { source: HookSource; settings?: unknown; ctx: ReadContext }[],
  problems: HookProblem[],
): HookSettings {
  const out: HookSettings = {
    compat: { claude: true, reasonix: true, tutorial: true, cagent: [] },
    cagentFromUser: [],
    allowPrivateNetworks: false,
  };
  for (const { source, settings, ctx } of files) {
    const parsed = KeelSettingsSchema.safeParse(settings);
    if (!parsed.success) continue;
    const { compat, allowPrivateNetworks } = parsed.data;
    if (compat?.claude !== undefined) out.compat.claude = compat.claude;
    if (compat?.reasonix !== undefined) out.compat.reasonix = compat.reasonix;
    if (compat?.tutorial !== undefined) out.compat.tutorial = compat.tutorial;
    const cagent = compat?.cagent;
    const named = typeof cagent === "string" ? [cagent] : Array.isArray(cagent) ? cagent : [];
    if (cagent === false) {
      out.compat.cagent = [];
      out.cagentFromUser = [];
    }
    out.compat.cagent.push(...named);
    if (source.scope === "user") out.cagentFromUser.push(...named);
    if (allowPrivateNetworks !== undefined) {
      if (source.scope === "user") out.allowPrivateNetworks = allowPrivateNetworks;
      else {
        problems.push(
          ctx.problem(
            "warning",
            ["allowPrivateNetworks"],
            "allowPrivateNetworks is only honoured in user-level settings (~/.keel/settings.json); ignored",
          ),
        );
      }
    }
  }
  return out;
}

function namesCagent(settings: unknown, file: string): boolean {
  const parsed = KeelSettingsSchema.safeParse(settings);
  const cagent = parsed.success ? parsed.data.compat?.cagent : undefined;
  return cagent === file || (Array.isArray(cagent) && cagent.includes(file));
}

function expandHome(path: string, paths: HookPaths): string {
  if (path === "~") return paths.homeDir;
  if (path.startsWith("~/")) return join(paths.homeDir, path.slice(2));
  return resolve(paths.projectDir, path);
}

/** Reads every source. Never throws: unreadable and malformed files become problems. */
export async function loadHooks(paths: HookPaths): Promise<LoadedHooks> {
  const { projectDir, keelHome, homeDir } = paths;
  const problems: HookProblem[] = [];
  const files: FileSnapshot[] = [];
  const seen = new Set<string>();
  const raws: { source: HookSource; hooks: RawHook[]; ctx: ReadContext }[] = [];

  const readAll = async (candidates: Candidate[]) => {
    const fresh = candidates.filter((c) => !seen.has(c.path));
    for (const c of fresh) seen.add(c.path);
    const texts = await Promise.all(fresh.map((c) => readText(c.path)));
    const out: { source: HookSource; settings?: unknown; ctx: ReadContext }[] = [];
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
    });
    return out;
  };

  const keelFiles = await readAll([
    { path: join(keelHome, "settings.json"), dialect: "keel", scope: "user" },
    { path: join(projectDir, ".keel", "settings.json"), dialect: "keel", scope: "project" },
    { path: join(projectDir, ".keel", "settings.local.json"), dialect: "keel", scope: "local" },
  ]);
  const settings = mergeSettings(keelFiles, problems);

  const more: Candidate[] = [];
  if (settings.compat.claude) {
    more.push(
      { path: join(homeDir, ".claude", "settings.json"), dialect: "claude", scope: "user" },
      { path: join(projectDir, ".claude", "settings.json"), dialect: "claude", scope: "project" },
      {
        path: join(projectDir, ".claude", "settings.local.json"),
        dialect: "claude",
        scope: "local",
      },
    );
  }
  if (settings.compat.reasonix) {
    more.push(
      {
        path: join(projectDir, ".reasonix", "settings.json"),
        dialect: "reasonix",
        scope: "project",
      },
      { path: join(homeDir, ".reasonix", "settings.json"), dialect: "reasonix", scope: "user" },
    );
  }
  if (settings.compat.tutorial) {
    more.push({ path: join(projectDir, ".hooks.json"), dialect: "tutorial", scope: "project" });
  }
  for (const file of settings.compat.cagent) {
    const path = expandHome(file, paths);
    // A project file must not make hooks trusted by naming a file outside the project.
    const userOnly =
      settings.cagentFromUser.includes(file) &&
      !keelFiles.some((k) => k.source.scope !== "user" && namesCagent(k.settings, file));
    const scope = userOnly && !isInside(projectDir, path) ? "user" : "project";
    more.push({ path, dialect: "cagent", scope });
  }
  await readAll(more);
  for (const c of settings.compat.cagent) {
    const path = expandHome(c, paths);
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
  return {
    paths,
    hooks,
    problems,
    sources: raws.map((r) => r.source),
    settings,
    files,
  };
}
