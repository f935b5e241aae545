/**
 * Reading Antigravity CLI's `hooks.json` (`.agents/hooks.json`, `~/.gemini/config/hooks.json`).
 * Its shape is not Claude Code's: the top level is an object of NAMED hooks, each with an
 * optional `enabled` and its events —
 *
 *   { "<name>": { "enabled"?: bool,
 *                 "PreToolUse" | "PostToolUse": [ { "matcher": "...", "hooks": [handler] } ],
 *                 "PreInvocation" | "PostInvocation" | "Stop" | "SessionStart": [handler] } }
 *
 * with handlers `{type?: "command", command, timeout?: whole seconds}` or
 * `{type: "prompt", prompt, model?}`. Antigravity's rules, as its docs and the linter that
 * measured agy 1.1.25 (docs/hooks.md, "Antigravity") give them:
 * - a file with any structural error loads no hook at all (agy drops the whole file silently;
 *   Keel says so, naming the field);
 * - event names match case-insensitively; keys it does not know (`env`, `cwd`, `name`, …) are
 *   discarded, so Keel discards them too (a discarded `env` must not take effect here either);
 * - matchers on the four non-tool events are ignored.
 */
import { isRecord } from "../../../base/index.js";
import type { RawHook, ReadContext } from "../../config/handler.js";
import { parseJsonText } from "../../config/parse.js";
import type { FieldPath } from "../../config/positions.js";
import type { HookEventName } from "../../events.js";
import type { HookProblem } from "../../types.js";
import type { DialectReadResult } from "../types.js";

/** Antigravity's events (lower-cased, as it matches them), each with the Keel event it is.
 *  PreInvocation fires before every model call in Antigravity; Keel fires it once, before a
 *  prompt's first call (invocationNum 0), as UserPromptSubmit. PostInvocation has no Keel
 *  counterpart (null): its hooks are read and reported as never running. */
export const ANTIGRAVITY_EVENTS: ReadonlyMap<string, HookEventName | null> = new Map([
  ["pretooluse", "PreToolUse"],
  ["posttooluse", "PostToolUse"],
  ["preinvocation", "UserPromptSubmit"],
  ["stop", "Stop"],
  ["sessionstart", "SessionStart"],
  ["postinvocation", null],
]);

/** The events written as `{matcher, hooks}` groups; the others take a flat handler list. */
const TOOL_EVENTS = new Set(["pretooluse", "posttooluse"]);
const HANDLER_KEYS = new Set(["type", "command", "timeout", "prompt", "model"]);
const GROUP_KEYS = new Set(["matcher", "hooks"]);
/** Antigravity's timeout is a Go int32. */
const INT32 = 2 ** 31;

interface Reader {
  ctx: ReadContext;
  hooks: RawHook[];
  /** Errors: with any, Antigravity loads nothing from the file. */
  errors: HookProblem[];
  warnings: HookProblem[];
}

function error(r: Reader, at: FieldPath, message: string): void {
  r.errors.push(r.ctx.problem("error", at, message));
}

function warn(r: Reader, at: FieldPath, message: string, neverRuns = false): void {
  const p = r.ctx.problem("warning", at, message);
  if (neverRuns) p.neverRuns = true;
  r.warnings.push(p);
}

function where(at: FieldPath): string {
  return at
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
    .join("")
    .slice(1);
}

/** Keys Antigravity discards, named so the author knows they do nothing. */
function unknownKeys(r: Reader, value: Record<string, unknown>, known: Set<string>, at: FieldPath) {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      warn(
        r,
        [...at, key],
        `${where([...at, key])}: Antigravity discards "${key}"; it does nothing`,
      );
    }
  }
}

/** One handler; errors make the whole file void (as in agy), warnings keep it. */
function readHandler(
  r: Reader,
  value: unknown,
  event: HookEventName | null,
  matcher: { matcher: string | undefined; matcherAt?: FieldPath },
  hookName: string,
  enabled: boolean,
  at: FieldPath,
): void {
  if (!isRecord(value)) {
    error(r, at, `${where(at)}: a handler must be an object`);
    return;
  }
  const type = value.type ?? "command";
  if (type !== "command" && type !== "prompt") {
    error(
      r,
      [...at, "type"],
      `${where(at)}.type: "${String(type)}" is not "command" or "prompt" (case-sensitive)`,
    );
    return;
  }
  const timeout = value.timeout;
  if (
    timeout !== undefined &&
    !(Number.isInteger(timeout) && Math.abs(timeout as number) < INT32)
  ) {
    error(
      r,
      [...at, "timeout"],
      `${where(at)}.timeout: must be a whole number of seconds (Antigravity refuses ${JSON.stringify(timeout)})`,
    );
    return;
  }
  if (type === "command" && ("prompt" in value || "model" in value)) {
    error(r, at, `${where(at)}: a command hook cannot carry "prompt" or "model"`);
    return;
  }
  if (type === "prompt" && "command" in value) {
    error(r, at, `${where(at)}: a prompt hook cannot carry "command"`);
    return;
  }
  unknownKeys(r, value, HANDLER_KEYS, at);
  if (type === "prompt") {
    warn(
      r,
      at,
      `${where(at)}: Keel does not run Antigravity prompt hooks (their contract is not published); this hook never runs`,
      true,
    );
    return;
  }
  const command = value.command;
  if (command !== undefined && typeof command !== "string") {
    error(r, [...at, "command"], `${where(at)}.command: must be a string`);
    return;
  }
  if (command === undefined || command.trim() === "") {
    warn(r, at, `${where(at)}: no command; this hook runs nothing`, true);
    return;
  }
  if (event === null || !enabled) return;
  const handler: RawHook["handler"] = { type: "command", command, name: hookName };
  if (typeof timeout === "number" && timeout > 0) handler.timeout = timeout;
  r.hooks.push({ event, ...matcher, handler, at, problems: [] });
}

function readEvent(
  r: Reader,
  key: string,
  entries: unknown,
  hookName: string,
  enabled: boolean,
  at: FieldPath,
): void {
  const lower = key.toLowerCase();
  const event = ANTIGRAVITY_EVENTS.get(lower);
  if (!Array.isArray(entries)) {
    error(r, at, `${where(at)}: must be an array`);
    return;
  }
  if (event === undefined) {
    warn(r, at, `${where(at)}: Antigravity has no event "${key}"; these hooks never run`, true);
    return;
  }
  if (event === null) {
    warn(
      r,
      at,
      `${where(at)}: Keel has no event after each model call; PostInvocation hooks never run in Keel`,
      true,
    );
  }
  entries.forEach((entry, i) => {
    const entryAt = [...at, i];
    if (!TOOL_EVENTS.has(lower)) {
      readHandler(r, entry, event, { matcher: undefined }, hookName, enabled, entryAt);
      return;
    }
    if (!isRecord(entry)) {
      error(r, entryAt, `${where(entryAt)}: a group must be an object`);
      return;
    }
    const m = entry.matcher;
    if (m !== undefined && typeof m !== "string") {
      error(r, [...entryAt, "matcher"], `${where(entryAt)}.matcher: must be a string`);
      return;
    }
    const hooks = entry.hooks ?? [];
    if (!Array.isArray(hooks)) {
      error(r, [...entryAt, "hooks"], `${where(entryAt)}.hooks: must be an array`);
      return;
    }
    unknownKeys(r, entry, GROUP_KEYS, entryAt);
    // "" and "*" are Antigravity's catch-alls; Keel's "claude" matcher style reads both so.
    const matcher = { matcher: m, matcherAt: [...entryAt, "matcher"] };
    hooks.forEach((h, j) => {
      readHandler(r, h, event, matcher, hookName, enabled, [...entryAt, "hooks", j]);
    });
  });
}

/** Reads one Antigravity hooks.json. Never throws. */
export function readAntigravityFile(text: string, ctx: ReadContext): DialectReadResult {
  const parsed = parseJsonText(text, ctx.path);
  if ("problem" in parsed) return { hooks: [], problems: [parsed.problem] };
  const r: Reader = { ctx, hooks: [], errors: [], warnings: [] };
  const root = parsed.value;
  if (!isRecord(root)) {
    error(r, [], "the file must be an object of named hooks");
  } else {
    for (const [name, value] of Object.entries(root)) {
      const at: FieldPath = [name];
      if (name === "enabled") {
        error(
          r,
          at,
          'enabled: every top-level key is a hook NAME; put "enabled" inside the named hook it switches',
        );
        continue;
      }
      if (!isRecord(value)) {
        error(r, at, `${name}: a named hook must be an object`);
        continue;
      }
      const enabled = value.enabled ?? true;
      if (typeof enabled !== "boolean") {
        error(r, [...at, "enabled"], `${name}.enabled: must be true or false`);
        continue;
      }
      for (const [key, entries] of Object.entries(value)) {
        if (key === "enabled") continue;
        readEvent(r, key, entries, name, enabled, [...at, key]);
      }
    }
  }
  if (r.errors.length > 0) {
    // Antigravity drops the whole file on any of these; the warnings wait until it loads.
    const first = r.errors[0] as HookProblem;
    first.message +=
      " (Antigravity loads no hook from this file while an error stands; neither does Keel)";
    return { hooks: [], problems: r.errors };
  }
  return { hooks: r.hooks, problems: r.warnings, settings: root };
}
