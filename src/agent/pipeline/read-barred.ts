/**
 * The one test of "is this file barred from reading for the model": Keel's own homes (KEEL_HOME
 * holds the provider key) and every file a Read deny or ask rule covers. Everything that reads a
 * file for the model passes it — the read tools (policy.ts refuses the named path, grep over a
 * folder skips barred files), edit_file/write_file's read of the old content, memory imports
 * (memory.ts) and a custom command's `@path` attachments (commands/expand.ts) — so a new reader
 * has one function to call, and docs/security.md names it.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { privatePlaces, realpathOrUndefined } from "../../base/index.js";
import type { PermissionRule } from "../permissions/rules.js";
import type { PipelineContext } from "./types.js";

/** What the test needs: the session's rules, its project and its KEEL_HOME. */
export interface ReadBarScope {
  rules?: { rules: readonly PermissionRule[]; homeDir: string } | undefined;
  projectDir: string;
  keelHome?: string | undefined;
}

/** Why a file may not be read for the model: Keel's home, or the Read rule that covers it. */
export type ReadBar =
  | { by: "keel-home"; reason: string }
  | { by: "rule"; rule: PermissionRule; reason: string };

/** Why `abs` may not be read for the model, or null when it may. Links are followed. */
export type ReadBarTest = (abs: string) => ReadBar | null;

/** The one "barred from reading" test for a session (see the file comment). */
export function pathReadBarred(scope: ReadBarScope): ReadBarTest {
  const homeBar = keelHomeBar(scope);
  const ruleBar = readRuleBar(scope);
  return (abs) => homeBar(abs) ?? ruleBar(abs);
}

/** The files and links resolved of `abs`, as the test sees them. */
function candidates(scope: ReadBarScope, abs: string): string[] {
  const full = resolve(scope.projectDir, abs);
  return [...new Set([full, realpathOrUndefined(full) ?? full])];
}

/** The KEEL_HOME half of the test. */
function keelHomeBar(scope: ReadBarScope): ReadBarTest {
  const homes = [
    ...(scope.keelHome !== undefined ? [resolve(scope.keelHome)] : []),
    ...privatePlaces({ cwd: scope.projectDir }).keelHomes,
  ];
  const keelHomes = [...new Set(homes.flatMap((h) => [h, realpathOrUndefined(h) ?? h]))];
  return (abs) =>
    candidates(scope, abs).some((p) => keelHomes.some((h) => within(h, p)))
      ? {
          by: "keel-home",
          reason: "it is in Keel's home (KEEL_HOME), which holds the provider key",
        }
      : null;
}

/** The Read-rule half of the test. */
function readRuleBar(scope: ReadBarScope): ReadBarTest {
  const rules = scope.rules;
  if (rules === undefined) return () => null;
  const barring = rules.rules.filter((r) => r.kind !== "allow" && /^Read(\(|$)/.test(r.text));
  return (abs) => {
    for (const r of barring) {
      for (const p of candidates(scope, abs)) {
        const hit = r.test({
          toolName: "read_file",
          input: { path: p },
          projectDir: scope.projectDir,
          homeDir: rules.homeDir,
        });
        if (hit) return { by: "rule", rule: r, reason: `the ${r.kind} rule ${r.text} covers it` };
      }
    }
    return null;
  };
}

function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The session's "barred from reading" test, from the pipeline's context. */
export function readBarTestOf(ctx: PipelineContext): ReadBarTest {
  return pathReadBarred({
    rules: ctx.rules,
    projectDir: ctx.info.projectDir,
    keelHome: ctx.info.keelHome,
  });
}

/**
 * For a read tool or the shell, the test of files a read tool skips inside a folder (grep) or a
 * sandboxed command finds empty, or undefined when nothing could be barred. The shell gets only
 * Read rules' files: the sandbox hides KEEL_HOME itself, and a Bash deny rule must not make every
 * sandboxed command search the project.
 */
export function readBarredBy(
  ctx: PipelineContext,
  kind: string,
): ((abs: string) => boolean) | undefined {
  if (kind === "read") {
    const test = readBarTestOf(ctx);
    return (abs) => test(abs) !== null;
  }
  // Session tools read files for the model too: the skill tool's SKILL.md and the files beside
  // it. The user's own skills may live in $KEEL_HOME/skills (and plugins' in $KEEL_HOME/plugins),
  // so those two folders are not KEEL_HOME for them; a Read rule still bars, and a link out of
  // them to config.json is judged where it lands.
  if (kind === "session") {
    const scope = {
      rules: ctx.rules,
      projectDir: ctx.info.projectDir,
      keelHome: ctx.info.keelHome,
    };
    const homeBar = keelHomeBar(scope);
    const ruleBar = readRuleBar(scope);
    const keelHome = ctx.info.keelHome;
    const open =
      keelHome === undefined
        ? []
        : ["skills", "plugins"].flatMap((d) => {
            const dir = resolve(keelHome, d);
            return [dir, realpathOrUndefined(dir) ?? dir];
          });
    return (abs) => {
      if (ruleBar(abs) !== null) return true;
      if (homeBar(abs) === null) return false;
      const real = realpathOrUndefined(abs) ?? abs;
      return !open.some((d) => within(d, real) && real !== d);
    };
  }
  const rules = ctx.rules;
  if (kind !== "shell" || rules === undefined) return undefined;
  const barring = rules.rules.filter((r) => r.kind !== "allow" && /^Read(\(|$)/.test(r.text));
  if (barring.length === 0) return undefined;
  const projectDir = ctx.info.projectDir;
  return (abs) =>
    barring.some((r) =>
      r.test({ toolName: "read_file", input: { path: abs }, projectDir, homeDir: rules.homeDir }),
    );
}
