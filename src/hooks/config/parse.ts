/**
 * Parsing a hooks file's text at the boundary: JSON (BOM and blank files tolerated) and YAML,
 * each error one located problem. Every dialect's reader starts here.
 */
import { LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import type { HookProblem } from "../types.js";
import { isRecord } from "../util.js";
import { type RawHook, type ReadContext, zodProblems } from "./handler.js";
import { jsonErrorMessage, jsonErrorPosition } from "./positions.js";

/** A parsed value, or the problem that stopped it. */
export type Parsed = { value: unknown } | { problem: HookProblem };

/** Parses JSON text; a syntax error becomes a located problem. */
export function parseJsonText(text: string, path: string): Parsed {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(body) };
  } catch (err) {
    const pos = jsonErrorPosition(body, err);
    return {
      problem: {
        severity: "error",
        path,
        line: pos.line,
        column: pos.column,
        message: `invalid JSON: ${jsonErrorMessage(err)}`,
      },
    };
  }
}

/** Parses YAML text; every syntax error becomes a located problem. */
export function parseYamlText(
  text: string,
  path: string,
): { value: unknown } | { problems: HookProblem[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
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
  return { value: doc.toJS() };
}

/**
 * Reads a JSON settings file whose `hooks` key a dialect's `readHooks` understands: syntax,
 * then the top-level schema, then the hooks entry by entry.
 */
export function readJsonHooksFile(
  text: string,
  ctx: ReadContext,
  schema: z.ZodType,
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
