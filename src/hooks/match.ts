/**
 * Matchers (per dialect) and `if` conditions in permission-rule form `Tool(glob)`. Both are
 * compiled once when hooks are loaded; a malformed one is a problem and makes its hook
 * inactive — never "match everything".
 */
import { isAbsolute, relative, resolve } from "node:path";
import { finalPath, safeGlob, wildcardMatcher } from "../base/index.js";
import { keelToolNameFromAny } from "./dialects/index.js";
import type { MatcherStyle } from "./dialects/types.js";
import type { ToolInput } from "./events.js";
import { fromProject, shellFolder } from "./shell/cwd-words.js";
import { commandsForConditions } from "./shell/normalize.js";
import { whyRuleUnsure } from "./shell/unsure.js";
import { type HookToolCatalog, isPathField, primaryArgOf } from "./tool-descriptor.js";

/** A compiled matcher: a predicate, or the reason it could not be compiled. */
export type CompiledMatcher =
  | {
      ok: true;
      matchesAll: boolean;
      test: (value: string) => boolean;
      /** Whether the matcher names `value` whole (alone or as one `|` entry), for names it must
       *  not search as regex text (a tool's aliases, Keel's own tool name). */
      exact?: (value: string) => boolean;
    }
  | { ok: false; message: string };

const ALL: CompiledMatcher = { ok: true, matchesAll: true, test: () => true };

function regex(source: string): RegExp | string {
  try {
    return new RegExp(source);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Compiles a matcher the way its dialect reads it. `mode` "search" (UserPromptSubmit's prompt
 * text) looks for the regex anywhere instead of requiring a full match.
 */
export function compileMatcher(
  style: MatcherStyle,
  matcher: string | undefined,
  mode: "name" | "search" = "name",
): CompiledMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return ALL;
  if (style === "search") return searchMatcher(matcher.trim());
  if (style === "qwen") return qwenMatcher(matcher);
  if (style === "exact" && mode === "name") {
    return { ok: true, matchesAll: false, test: (v) => v === matcher };
  }
  if (style === "claude" && mode === "name" && /^[A-Za-z0-9_ ,|-]+$/.test(matcher)) {
    const names = new Set(
      matcher
        .split(/[|,]/)
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    );
    return { ok: true, matchesAll: false, test: (v) => names.has(v) };
  }
  const anchored = style !== "claude" && mode === "name";
  const re = regex(anchored ? `^(?:${matcher})$` : matcher);
  if (typeof re === "string") return { ok: false, message: `invalid matcher regex: ${re}` };
  return { ok: true, matchesAll: false, test: (v) => re.test(v) };
}

/**
 * Qwen Code's matcher: trimmed, `*` or empty for everything, else a regex tested anywhere in
 * the value (`run_shell` matches `run_shell_command`); text that is no valid regex must equal it.
 */
function searchMatcher(matcher: string): CompiledMatcher {
  if (matcher === "" || matcher === "*") return ALL;
  const re = regex(matcher);
  if (typeof re === "string") return { ok: true, matchesAll: false, test: (v) => v === matcher };
  return { ok: true, matchesAll: false, test: (v) => re.test(v) };
}

/** Trailing whitespace goes unless a backslash escapes it; leading whitespace always goes
 *  (Qwen Code 0.24's hook-matcher.ts trimMatcherEdges / trimEntryEdges). */
function trimQwenEdges(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1] ?? "")) {
    let backslashes = 0;
    for (let i = end - 2; i >= 0 && text[i] === "\\"; i--) backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return text.slice(0, end).trimStart();
}

/** Splits at `|` outside groups, character classes and escapes (Qwen's splitListEntries). */
function splitQwenList(pattern: string): string[] {
  const entries: string[] = [];
  let current = "";
  let escaped = false;
  let inClass = false;
  let depth = 0;
  for (const c of pattern) {
    if (escaped) escaped = false;
    else if (c === "\\") escaped = true;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === "|" && depth === 0) {
      entries.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  entries.push(current);
  return entries;
}

/**
 * Qwen Code 0.24's matcher (its hook-matcher.ts matchesHookPattern): empty, `*` or `.*` match
 * everything; a pattern equal to the name or one of its aliases matches; a `|` list not
 * starting with `^` or `(` matches when one trimmed entry is such a name, else its entries are
 * one regex; the regex is searched anywhere in the tool's own name. Text that is no valid
 * regex matches only by the exact checks.
 */
function qwenMatcher(written: string): CompiledMatcher {
  const pattern = trimQwenEdges(written);
  if (pattern === "" || pattern === "*" || pattern === ".*") return ALL;
  let entries: string[] = [pattern];
  let source = pattern;
  if (pattern.includes("|") && !pattern.startsWith("^") && !pattern.startsWith("(")) {
    entries = splitQwenList(pattern)
      .map(trimQwenEdges)
      .filter((e) => e !== "");
    if (entries.some((e) => e === "*" || e === ".*")) return ALL;
    source = entries.join("|");
  }
  const names = new Set([pattern, ...entries]);
  const exact = (v: string) => names.has(v);
  const re = entries.length === 0 ? null : regex(source);
  const search = (v: string) => typeof re !== "string" && re !== null && re.test(v);
  return { ok: true, matchesAll: false, test: (v) => exact(v) || search(v), exact };
}

/** A parsed `if` condition. */
export interface Condition {
  /** The condition as written. */
  text: string;
  /** The Keel tool it names (any dialect's name is accepted). */
  tool: string;
  /** Tests the call's input; true when the glob matches its primary argument (which field that
   *  is comes from the tool's descriptor in `tools`). `cwd`: the shell's directory (the
   *  payload's `cwd`); a command run in a folder of the project also matches as read from the
   *  project (shell/cwd-words.ts: `rm ../x` in `sub` is `rm x` to `Bash(rm x)`). */
  test(input: ToolInput, projectDir: string, tools?: HookToolCatalog, cwd?: string): boolean;
}

/**
 * `*` spans anything; everything else is literal. A trailing `:*` is Claude's prefix form. Not a
 * RegExp: the text is the model's, and `.*` backtracks (src/base/wildcard.ts, attacks6/34).
 */
function simpleGlob(glob: string): (text: string) => boolean {
  return wildcardMatcher(glob.endsWith(":*") ? `${glob.slice(0, -2)}*` : glob);
}

/**
 * The fallback for lines the shell parser rejects (they fail in `sh` too, but a hook should
 * still see what they name): splits at `&&`, `||`, `;`, `|`, `&` and newlines.
 */
export function splitShellCommand(command: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? "";
    if (quote) {
      current += c;
      if (c === "\\" && quote === '"' && i + 1 < command.length) current += command[++i] ?? "";
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "\\" && i + 1 < command.length) {
      current += c + (command[++i] ?? "");
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
      continue;
    }
    if (c === ";" || c === "\n" || c === "|" || c === "&") {
      if (command[i + 1] === c && (c === "|" || c === "&")) i++;
      parts.push(current);
      current = "";
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** Parses `Tool`, `Tool(glob)`; returns an error message when the text is not of that form. */
export function parseCondition(
  text: string,
): { ok: true; condition: Condition } | { ok: false; message: string } {
  const m = /^\s*([A-Za-z0-9_.:-]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text);
  if (!m) {
    return { ok: false, message: `invalid condition "${text}": expected Tool or Tool(glob)` };
  }
  const tool = keelToolNameFromAny(m[1] ?? "");
  const glob = m[2]?.trim();
  if (glob === undefined || glob === "" || glob === "*" || glob === "**") {
    return { ok: true, condition: { text, tool, test: () => true } };
  }
  let pathMatcher: (path: string) => boolean;
  try {
    // safe-glob.ts: the glob comes from a repository's hooks file; matched in linear time.
    pathMatcher = safeGlob(glob.replace(/^\.\//, ""), { dot: true, basename: !glob.includes("/") });
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `invalid condition "${text}": ${why}` };
  }
  const plain = simpleGlob(glob);
  // The path as named and where it lands, links followed (`s -> secrets`, a new file under a
  // linked folder), as permission rules test it (agent/permissions/rules.ts pathOf).
  const pathMatches = (arg: string, projectDir: string): boolean => {
    const named = resolve(projectDir, arg);
    for (const abs of new Set([named, finalPath(named)])) {
      if (isAbsolute(glob) ? pathMatcher(abs) : pathMatcher(relative(projectDir, abs))) return true;
      const realProject = finalPath(resolve(projectDir));
      if (!isAbsolute(glob) && pathMatcher(relative(realProject, abs))) return true;
    }
    return false;
  };
  const test = (
    input: ToolInput,
    projectDir: string,
    tools?: HookToolCatalog,
    cwd?: string,
  ): boolean => {
    const primary = primaryArgOf(tools, tool, input);
    if (primary === undefined) return false;
    const { field: key, value: arg } = primary;
    if (isPathField(tools, tool, key)) return pathMatches(arg, projectDir);
    if (key === "command") {
      const matches = plain;
      // Judged from the shell's folder too (`rm ../x` in sub/ is `rm x`), shell/cwd-words.ts.
      const folder = cwd === undefined ? null : shellFolder({ projectDir, cwd });
      const judged = (sub: string) =>
        (folder === null ? [sub] : [sub, ...fromProject(sub, folder, "all")]).some(matches);
      if (commandsForConditions(arg, splitShellCommand).some(judged)) return true;
      // The mirror of a Bash deny rule's fail-closed side (shell/unsure.ts): where the line
      // cannot be judged (an alias, a globbed program, `awk 'BEGIN{system(…)}'`), the guard runs.
      return whyRuleUnsure(arg, matches, glob) !== null;
    }
    return plain(arg);
  };
  return { ok: true, condition: { text, tool, test } };
}
