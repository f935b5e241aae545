/**
 * grep: lines matching an RE2 regex, walked in-process (no ripgrep), as `file:line: text`.
 * RE2 (re2js) matches in time linear in the text, so no pattern can pin the CPU; the scan
 * yields to the event loop as it goes, so an interrupt or SIGTERM stops it, and it has a budget.
 */
import { RE2JS } from "re2js";
import { z } from "zod";
import { safeGlob } from "../base/index.js";
import { defineTool, fileToolOptions, toolFrame } from "./define.js";
import {
  type FileOperations,
  type FileToolOptions,
  looksBinary,
  nodeFileOperations,
  specialKind,
} from "./file-operations.js";
import { skippedFor } from "./glob.js";
import { displayPath, insideRoots, resolveInProject } from "./paths.js";
import { errnoCode, guarded, toolError } from "./result.js";
import type { Tool, ToolContext, ToolResult } from "./types.js";
import { type WalkEntry, walkFiles } from "./walk.js";

/** Matching lines returned at most. */
export const GREP_MAX_MATCHES = 300;
/** Files larger than this are skipped. */
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARS = 300;
/** Wall-clock budget of one search; what was found by then is returned with a note. */
export const GREP_TIME_BUDGET_MS = 30_000;
/** Characters scanned between turns of the event loop (signals, aborts, timers). */
const YIELD_EVERY_CHARS = 256 * 1024;

/** The grep tool's arguments. */
export const grepSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .max(10_000)
    .describe("RE2 regular expression to search for (no backreferences or lookaround)."),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "File or directory to search, relative to the project directory (default: the project root).",
    ),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.py".'),
  ignore_case: z.boolean().optional().describe("Match case-insensitively (default false)."),
});
export type GrepInput = z.infer<typeof grepSchema>;

const DESCRIPTION = `Search file contents with an RE2 regular expression (the syntax of ripgrep and Go). Output is one line per match: "path:line: text", paths relative to the project directory, sorted by path.
- RE2 is JavaScript's syntax without backreferences (\\1) and lookaround ((?=…), (?!…), (?<=…), (?<!…)); everything else (classes, \\b, \\d, \\w, groups, (?i), {m,n} up to 1000) works. Matching time is linear in the text.
- glob filters files ("*.ts" matches by file name anywhere; "src/**/*.ts" by path).
- Skips node_modules, .git, binary files and files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB. At most ${GREP_MAX_MATCHES} matches are shown.
- Escape regex characters for literal text, e.g. "foo\\\\(" to find "foo(".`;

/** The grep tool: its schema, description and facts (hooks, rules, `keel hooks test`). */
export const grepTool = defineTool({
  name: "grep",
  description: DESCRIPTION,
  schema: grepSchema,
  kind: "read",
  primaryArg: "path",
  primaryDefault: ".",
  pathFields: ["path"],
  sample: { pattern: "TODO" },
  promptRank: 4,
  create: (ctx, opts) => createGrepTool(ctx, fileToolOptions(opts)),
});

/** Creates the grep tool. */
export function createGrepTool(ctx: ToolContext, opts: FileToolOptions = {}): Tool<GrepInput> {
  const ops = opts.ops ?? nodeFileOperations;
  return {
    ...toolFrame(grepTool, ctx),
    run: (input, { signal, readBarred }) =>
      guarded("grep", async () => {
        const regex = compilePattern(input);
        if (!(regex instanceof RE2JS)) return regex;
        const globMatch = compileGlob(input);
        if (typeof globMatch !== "function") return globMatch;
        const target = await searchTarget(ctx, opts, ops, input);
        if ("isError" in target) return target;
        const { where, isDir } = target;
        const roots = [ctx.cwd, ...(opts.extraReadDirs ?? [])];
        const files: AsyncIterable<WalkEntry> | WalkEntry[] = isDir
          ? walkFiles({
              ops,
              root: where.abs,
              signal,
              linkAllowed: (abs: string) => insideRoots(abs, roots),
              skip: skippedFor(input.glob ?? ""),
            })
          : [{ abs: where.abs, rel: where.rel }];
        const found = newSearch();
        for await (const file of files) {
          if (found.outOfTime || signal.aborted) break;
          if (isDir && !globMatch(file.rel)) continue;
          // A file a deny or ask rule keeps from read_file is not read here either.
          if (isDir && readBarred?.(file.abs)) continue;
          await searchFile(ops, file.abs, displayPath(ctx.cwd, file.abs), regex, found, signal);
        }
        if (signal.aborted) return toolError("grep: interrupted by the user.");
        return searchResult(input, where.rel, found);
      }),
  };
}

/** The pattern as RE2, or the tool's error for one RE2 cannot take. */
function compilePattern(input: GrepInput): RE2JS | ToolResult {
  try {
    return RE2JS.compile(input.pattern, input.ignore_case ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return toolError(
      `grep: pattern is not valid RE2 syntax (no backreferences or lookaround): ${why}`,
    );
  }
}

/** The glob filter (safe-glob.ts: linear in the path, like the pattern), or the tool's error. */
function compileGlob(input: GrepInput): ((rel: string) => boolean) | ToolResult {
  if (!input.glob) return () => true;
  try {
    return safeGlob(input.glob, { dot: true, basename: !input.glob.includes("/") });
  } catch (err) {
    return toolError(`grep: invalid glob: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Where to search, inside the project (or an extra read directory), and whether it is a
 *  directory; or the tool's error (outside, missing, or not a regular file). */
async function searchTarget(
  ctx: ToolContext,
  opts: FileToolOptions,
  ops: FileOperations,
  input: GrepInput,
) {
  const where = resolveInProject({
    tool: "grep",
    cwd: ctx.cwd,
    input: input.path ?? ".",
    access: "read",
    extraReadDirs: opts.extraReadDirs,
  });
  if (!where.ok) return toolError(where.error);
  try {
    const st = await ops.stat(where.abs);
    const isDir = st.isDirectory();
    // A FIFO, socket or device is never opened: reading one can block forever.
    if (!isDir && !st.isFile()) {
      return toolError(
        `grep: ${where.rel} is ${specialKind(st)}, not a regular file; it was not opened.`,
      );
    }
    return { where, isDir };
  } catch (err) {
    if (errnoCode(err) === "ENOENT") return toolError(`grep: ${where.rel} does not exist.`);
    throw err;
  }
}

/** What one search found so far. */
interface Search {
  hits: string[];
  /** Matches past GREP_MAX_MATCHES, counted, not shown. */
  more: number;
  /** Files over GREP_MAX_FILE_BYTES. */
  skipped: number;
  deadline: number;
  sinceYield: number;
  outOfTime: boolean;
}

function newSearch(): Search {
  const deadline = Date.now() + GREP_TIME_BUDGET_MS;
  return { hits: [], more: 0, skipped: 0, deadline, sinceYield: 0, outOfTime: false };
}

/** One file's matching lines into `s`; a large or binary file is skipped. Yields to the event
 *  loop every YIELD_EVERY_CHARS and stops at the deadline. */
async function searchFile(
  ops: FileOperations,
  abs: string,
  shown: string,
  regex: RE2JS,
  s: Search,
  signal: AbortSignal,
): Promise<void> {
  const st = await ops.stat(abs).catch(() => null);
  if (st === null || !st.isFile()) return;
  if (st.size > GREP_MAX_FILE_BYTES) {
    s.skipped += 1;
    return;
  }
  const bytes = await ops.readFile(abs).catch(() => null);
  if (!bytes || looksBinary(bytes)) return;
  const lines = bytes.toString("utf8").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    s.sinceYield += line.length + 1;
    if (s.sinceYield > YIELD_EVERY_CHARS) {
      s.sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) break;
      if (Date.now() > s.deadline) {
        s.outOfTime = true;
        break;
      }
    }
    if (!regex.test(line)) continue;
    if (s.hits.length >= GREP_MAX_MATCHES) {
      s.more += 1;
      continue;
    }
    const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    s.hits.push(`${shown}:${i + 1}: ${text}`);
  }
}

/** The matches, then notes on what was left out. */
function searchResult(input: GrepInput, rel: string, s: Search): ToolResult {
  const notes: string[] = [];
  if (s.outOfTime) {
    notes.push(
      `[stopped after ${GREP_TIME_BUDGET_MS / 1000} s; results are partial: narrow the path or glob]`,
    );
  }
  if (s.more > 0)
    notes.push(`[${s.more} more matches not shown; narrow the pattern, path or glob]`);
  if (s.skipped > 0)
    notes.push(`[${s.skipped} files over ${GREP_MAX_FILE_BYTES} bytes were skipped]`);
  if (s.hits.length === 0) {
    return {
      content: [
        `No matches for /${input.pattern}/ in ${rel === "." ? "the project" : rel}.`,
        ...notes,
      ].join("\n"),
      isError: false,
      details: { matches: 0 },
    };
  }
  return {
    content: [...s.hits, ...notes].join("\n"),
    isError: false,
    details: { matches: s.hits.length + s.more, truncated: s.more > 0 },
  };
}
