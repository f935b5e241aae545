/**
 * Reading Codex's hook files: `hooks.json` (`{"hooks": {<Event>: [groups]}}`) and the `hooks`
 * table of `config.toml` (`[[hooks.<Event>]]` groups with `[[hooks.<Event>.hooks]]` handlers,
 * beside `hooks.state`, Codex's per-hook enable/trust records). Both have Claude Code's shape,
 * read by the native reader after the rules Codex applies when it loads them:
 * - only `command` handlers run; `prompt` and `agent` ones are skipped with a warning;
 * - a group without `hooks` runs nothing (Codex's group has `hooks` default to empty);
 * - matchers on UserPromptSubmit, Stop, PreCompact and PostCompact are ignored (dialect rule);
 * - `apply_patch` is also matched as `Write` and `Edit` (Codex's matcher aliases), so a
 *   matcher naming either is given `apply_patch` too.
 */

import { isRecord } from "../../../base/index.js";
import type { ReadContext } from "../../config/handler.js";
import { readJsonHooksFile } from "../../config/parse.js";
import type { FieldPath } from "../../config/positions.js";
import { readNativeHooks } from "../../config/read-native.js";
import { hooksFileSchema } from "../../config/schema.js";
import type { HookEventName } from "../../events.js";
import type { HookProblem } from "../../types.js";
import type { DialectReadResult } from "../types.js";
import { parseToml, TomlError } from "./toml.js";

/** Codex's event names (codex 0.171's config), each with the Keel event it is. */
export const CODEX_EVENTS: ReadonlyMap<string, HookEventName> = new Map([
  ["SessionStart", "SessionStart"],
  ["SessionEnd", "SessionEnd"],
  ["UserPromptSubmit", "UserPromptSubmit"],
  ["PreToolUse", "PreToolUse"],
  ["PermissionRequest", "PermissionRequest"],
  ["PostToolUse", "PostToolUse"],
  ["PreCompact", "PreCompact"],
  ["PostCompact", "PostCompact"],
  ["Stop", "Stop"],
  ["SubagentStart", "SubagentStart"],
  ["SubagentStop", "SubagentStop"],
]);

/** Tool names Codex also matches `apply_patch` by. */
const APPLY_PATCH_ALIASES = ["Write", "Edit"];

/** Events whose matcher is the tool name (the aliases apply there). */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PermissionRequest"]);

/** Codex's exact-name matcher: letters, digits, `_` and `|` only (anything else is a regex). */
const EXACT = /^[A-Za-z0-9_|]+$/;

/**
 * A Codex matcher in the form Keel's "claude" matcher style reads the same way: names stay
 * names (with `apply_patch` added where an alias is named); anything else is a regex tested
 * anywhere in the name, wrapped so Keel never reads it as a list of names (`Bash,Write` is a
 * regex in Codex). Undefined: the matcher was not valid.
 */
export function codexMatcher(matcher: string, toolEvent: boolean): string | undefined {
  if (matcher === "" || matcher === "*") return matcher;
  if (EXACT.test(matcher)) {
    const names = matcher.split("|");
    if (toolEvent && names.some((n) => APPLY_PATCH_ALIASES.includes(n))) {
      if (!names.includes("apply_patch")) names.push("apply_patch");
    }
    return names.join("|");
  }
  let re: RegExp;
  try {
    re = new RegExp(matcher);
  } catch {
    return undefined;
  }
  const alias = toolEvent && APPLY_PATCH_ALIASES.some((n) => re.test(n));
  return alias ? `(?:${matcher})|^apply_patch$` : `(?:${matcher})`;
}

/** Reads `.codex/hooks.json` or `~/.codex/hooks.json`. */
export function readCodexJson(text: string, ctx: ReadContext): DialectReadResult {
  return readJsonHooksFile(text, ctx, hooksFileSchema(), (hooks, c) => readCodexHooks(hooks, c));
}

/** Reads the `hooks` table of a Codex `config.toml`. */
export function readCodexToml(text: string, ctx: ReadContext): DialectReadResult {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text);
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const problem: HookProblem = {
      severity: "error",
      path: ctx.path,
      line: err.line,
      column: err.column,
      message: `invalid TOML: ${err.message}; its hooks are not read`,
    };
    return { hooks: [], problems: [problem] };
  }
  const table = doc.hooks;
  if (table === undefined) return { hooks: [], problems: [] };
  if (!isRecord(table)) {
    return {
      hooks: [],
      problems: [ctx.problem("error", ["hooks"], "hooks: expected a table of events")],
    };
  }
  // `hooks.state` holds Codex's per-hook records (enabled, trusted_hash), not an event.
  const { state: _state, ...events } = table;
  const read = readCodexHooks(events, ctx);
  // Field positions are found by a JSON scanner, which cannot place a TOML key: a problem
  // names its field (`hooks.PreToolUse[0]…`) instead of a wrong line.
  const unplaced = (p: HookProblem): HookProblem => {
    const { line: _line, column: _column, ...rest } = p;
    return rest;
  };
  return {
    hooks: read.hooks.map((h) => ({ ...h, problems: h.problems.map(unplaced) })),
    problems: read.problems.map(unplaced),
  };
}

/** The `hooks` value of either file, by Codex's loading rules (see the file comment). */
function readCodexHooks(hooks: unknown, ctx: ReadContext) {
  const problems: HookProblem[] = [];
  if (!isRecord(hooks)) return readNativeHooks(hooks, ctx, eventFromCodexName);
  const kept: Record<string, unknown> = {};
  for (const [name, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      kept[name] = groups;
      continue;
    }
    kept[name] = groups.map((group, gi) =>
      keptGroup(group, name, ["hooks", name, gi], ctx, problems),
    );
  }
  const read = readNativeHooks(kept, ctx, eventFromCodexName);
  const untyped = read.hooks.find((h) => typeOf(hooks, h.at) === undefined);
  if (untyped !== undefined) {
    // Codex's handler is tagged by `type`: without it the file does not parse, and Codex
    // runs none of its hooks.
    const where = untyped.at.join(".");
    return {
      hooks: [],
      problems: [
        ...problems,
        ctx.problem(
          "error",
          untyped.at,
          `${where}.type: missing; Codex refuses this file, so no hook in it runs`,
        ),
      ],
    };
  }
  const run = read.hooks.filter((h) => {
    if (h.handler.type !== "prompt" && h.handler.type !== "agent") return true;
    problems.push(
      ctx.problem(
        "warning",
        [...h.at, "type"],
        `Codex skips ${h.handler.type} hooks (not supported yet); Keel does too`,
      ),
    );
    return false;
  });
  return { hooks: run, problems: [...problems, ...read.problems] };
}

/** The `type` written at `at` (a path into the `hooks` value, starting with "hooks"). */
function typeOf(hooks: Record<string, unknown>, at: FieldPath): unknown {
  let v: unknown = { hooks };
  for (const key of at) {
    if (Array.isArray(v) && typeof key === "number") v = v[key];
    else if (isRecord(v) && typeof key === "string") v = v[key];
    else return undefined;
  }
  return isRecord(v) ? v.type : undefined;
}

function eventFromCodexName(name: string): HookEventName | undefined {
  return CODEX_EVENTS.get(name);
}

/** One group as Codex would run it. */
function keptGroup(
  group: unknown,
  event: string,
  at: FieldPath,
  ctx: ReadContext,
  problems: HookProblem[],
): unknown {
  if (!isRecord(group)) return group;
  if (!("hooks" in group)) {
    problems.push(
      ctx.problem(
        "warning",
        at,
        `Codex expects {"matcher": …, "hooks": [{"type": "command", …}]} here; a group without "hooks" runs nothing`,
      ),
    );
    return { ...group, hooks: [] };
  }
  const out: Record<string, unknown> = { ...group };
  if (typeof group.matcher === "string" && CODEX_EVENTS.has(event)) {
    const matcher = codexMatcher(group.matcher, TOOL_EVENTS.has(event));
    if (matcher === undefined) {
      problems.push(
        ctx.problem(
          "warning",
          [...at, "matcher"],
          `invalid matcher "${group.matcher}": Codex skips this group, so does Keel`,
        ),
      );
      return { ...group, hooks: [] };
    }
    out.matcher = matcher;
  }
  return out;
}
