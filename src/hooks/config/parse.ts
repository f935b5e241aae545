/**
 * Parsing a hooks file's text at the boundary: JSON (BOM and blank files tolerated) and YAML,
 * each error one located problem. Every dialect's reader starts here.
 */
import stripJsonComments from "strip-json-comments";
import { LineCounter, parseDocument } from "yaml";
import { isRecord, jsonDepthExceeded, jsonSyntaxError } from "../../base/index.js";
import type { HookProblem } from "../types.js";
import { type RawHook, type ReadContext, zodProblems } from "./handler.js";
import { jsonErrorMessage, jsonErrorPosition, lineColumnAt } from "./positions.js";
import type { Checker } from "./quick-check.js";

/** A parsed value, or the problem that stopped it. */
export type Parsed = { value: unknown } | { problem: HookProblem };

/** Deepest nesting of objects and arrays a hooks file may have. Real files need under 10;
 *  the bound keeps every recursive reader (zod, the trust hash, the locator) safe. */
export const MAX_CONFIG_DEPTH = 64;

/** YAML aliases expanded at most this many times (a "billion laughs" file is refused). */
export const MAX_YAML_ALIASES = 1000;

function problemAt(path: string, text: string, offset: number, message: string): HookProblem {
  const pos = lineColumnAt(text, offset);
  return { severity: "error", path, line: pos.line, column: pos.column, message };
}

/**
 * A settings file's text without what JSON.parse refuses but the agents that write such files
 * accept: a byte-order mark (Windows editors) and `//` or `/* *\/` comments (Gemini CLI and Qwen
 * Code strip them from their settings.json, and users copy that habit). Comments become spaces,
 * so every line and column stays where it was. Text without a comment is returned as it is.
 */
export function settingsJsonText(text: string): string {
  const body = text.replace(/^\uFEFF/, "");
  return body.includes("//") || body.includes("/*") ? stripJsonComments(body) : body;
}

/**
 * JSON.parse for settings files (settingsJsonText first): every reader of a settings file
 * (hooks, permission rules, MCP servers, Keel's own settings) reads the same text the same way.
 * Throws JSON.parse's SyntaxError.
 */
export function parseSettingsJson(text: string): unknown {
  return JSON.parse(settingsJsonText(text));
}

/** Parses JSON text; a syntax error becomes one located problem, said in one line. */
export function parseJsonText(text: string, path: string): Parsed {
  const body = settingsJsonText(text);
  if (body.trim() === "") return { value: {} };
  const deep = jsonDepthExceeded(body, MAX_CONFIG_DEPTH);
  if (deep !== null) {
    const pos = lineColumnAt(body, deep);
    return {
      problem: problemAt(
        path,
        body,
        deep,
        `invalid JSON: nested deeper than ${MAX_CONFIG_DEPTH} levels at ${pos.line}:${pos.column}; file not read`,
      ),
    };
  }
  try {
    return { value: JSON.parse(body) };
  } catch (err) {
    const found = jsonSyntaxError(body);
    if (found) {
      const pos = lineColumnAt(body, found.offset);
      return {
        problem: problemAt(
          path,
          body,
          found.offset,
          `invalid JSON: ${found.reason} at ${pos.line}:${pos.column}`,
        ),
      };
    }
    const pos = jsonErrorPosition(body, err);
    return {
      problem: {
        severity: "error",
        path,
        line: pos.line,
        column: pos.column,
        message: `invalid JSON: ${jsonErrorMessage(err).split("\n", 1)[0]}`,
      },
    };
  }
}

/** Depth of a parsed value, computed without recursion; stops counting past `max`. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/** Parses YAML text; every syntax error becomes a located problem. */
export function parseYamlText(
  text: string,
  path: string,
): { value: unknown } | { problems: HookProblem[] } {
  // Flow collections are JSON-like: bound their depth before the (recursive) YAML parser.
  const deep = jsonDepthExceeded(text, MAX_CONFIG_DEPTH);
  if (deep !== null) {
    return {
      problems: [
        problemAt(
          path,
          text,
          deep,
          `invalid YAML: nested deeper than ${MAX_CONFIG_DEPTH} levels; file not read`,
        ),
      ],
    };
  }
  const counter = new LineCounter();
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text, { lineCounter: counter });
  } catch (err) {
    // Deep block nesting can exhaust the parser's stack: a problem, never a crash.
    const why = err instanceof RangeError ? "nested too deeply" : String(err);
    return {
      problems: [{ severity: "error", path, message: `invalid YAML: ${why}; file not read` }],
    };
  }
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const p: HookProblem = {
          severity: "error",
          path,
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
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    if (err instanceof RangeError) {
      return {
        problems: [
          { severity: "error", path, message: "invalid YAML: nested too deeply; file not read" },
        ],
      };
    }
    // yaml refuses an alias bomb ("Excessive alias count …") and other unresolvable aliases.
    const why = err instanceof Error ? (err.message.split("\n", 1)[0] ?? "") : String(err);
    return {
      problems: [
        {
          severity: "error",
          path,
          message: `invalid YAML: ${why.replace(/\.$/, "")} (more than ${MAX_YAML_ALIASES} alias expansions); file not read`,
        },
      ],
    };
  }
  if (depthExceeds(value, MAX_CONFIG_DEPTH)) {
    return {
      problems: [
        {
          severity: "error",
          path,
          message: `invalid YAML: nested deeper than ${MAX_CONFIG_DEPTH} levels; file not read`,
        },
      ],
    };
  }
  return { value };
}

/**
 * Reads a JSON settings file whose `hooks` key a dialect's `readHooks` understands: syntax,
 * then the top-level schema, then the hooks entry by entry.
 */
export function readJsonHooksFile(
  text: string,
  ctx: ReadContext,
  schema: Checker<unknown>,
  readHooks: (hooks: unknown, ctx: ReadContext) => { hooks: RawHook[]; problems: HookProblem[] },
): { hooks: RawHook[]; problems: HookProblem[]; settings?: unknown } {
  const parsed = parseJsonText(text, ctx.path);
  if ("problem" in parsed) return { hooks: [], problems: [parsed.problem] };
  const checked = schema.safeParse(parsed.value);
  const problems = checked.success ? [] : zodProblems(ctx, [], checked.error);
  if (!isRecord(parsed.value)) return { hooks: [], problems };
  const read = readHooks(parsed.value.hooks, ctx);
  return {
    hooks: read.hooks,
    problems: [...problems, ...read.problems],
    settings: checked.success ? checked.data : undefined,
  };
}
