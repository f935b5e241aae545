/** glob: files whose path matches a glob pattern, sorted, skipping node_modules and .git. */
import { z } from "zod";
import { safeGlob } from "../base/index.js";
import { defineTool, fileToolOptions, toolFrame } from "./define.js";
import { type FileToolOptions, nodeFileOperations } from "./file-operations.js";
import { displayPath, insideRoots, resolveInProject } from "./paths.js";
import { errnoCode, guarded, toolError } from "./result.js";
import type { Tool, ToolContext } from "./types.js";
import { SKIPPED_DIRS, walkFiles } from "./walk.js";

/** Paths returned at most. */
export const GLOB_MAX_RESULTS = 500;

/** The glob tool's arguments. */
export const globSchema = z.strictObject({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/test_*.py".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Directory to search in, relative to the project directory (default: the project root).",
    ),
});
export type GlobInput = z.infer<typeof globSchema>;

const DESCRIPTION = `Find files by name with a glob pattern ("**/*.ts", "src/**/*.{js,jsx}", "*.md"), matched against paths relative to the search directory.
- Returns matching file paths relative to the project directory, sorted, at most ${GLOB_MAX_RESULTS}.
- node_modules and .git are skipped unless the pattern names them. Hidden files are included.
- To search file contents, use grep.`;

/** The glob tool: its schema, description and facts (hooks, rules, `keel hooks test`). */
export const globTool = defineTool({
  name: "glob",
  description: DESCRIPTION,
  schema: globSchema,
  kind: "read",
  primaryArg: "path",
  primaryDefault: ".",
  pathFields: ["path"],
  sample: { pattern: "**/*.ts" },
  promptRank: 3,
  create: (ctx, opts) => createGlobTool(ctx, fileToolOptions(opts)),
});

/** Creates the glob tool. */
export function createGlobTool(ctx: ToolContext, opts: FileToolOptions = {}): Tool<GlobInput> {
  const ops = opts.ops ?? nodeFileOperations;
  return {
    ...toolFrame(globTool, ctx),
    run: (input, { signal }) =>
      guarded("glob", async () => {
        const where = resolveInProject({
          tool: "glob",
          cwd: ctx.cwd,
          input: input.path ?? ".",
          access: "read",
          extraReadDirs: opts.extraReadDirs,
        });
        if (!where.ok) return toolError(where.error);
        const roots = [ctx.cwd, ...(opts.extraReadDirs ?? [])];
        const readable = (abs: string) => insideRoots(abs, roots);
        try {
          if (!(await ops.stat(where.abs)).isDirectory()) {
            return toolError(`glob: ${where.rel} is a file; path must be a directory.`);
          }
        } catch (err) {
          if (errnoCode(err) === "ENOENT") return toolError(`glob: ${where.rel} does not exist.`);
          throw err;
        }
        let isMatch: (path: string) => boolean;
        try {
          isMatch = safeGlob(input.pattern, { dot: true });
        } catch (err) {
          return toolError(
            `glob: invalid pattern ${JSON.stringify(input.pattern)}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        const skip = skippedFor(input.pattern);
        const found: string[] = [];
        let more = 0;
        for await (const file of walkFiles({
          ops,
          root: where.abs,
          signal,
          linkAllowed: readable,
          skip,
        })) {
          if (!isMatch(file.rel)) continue;
          if (found.length < GLOB_MAX_RESULTS) found.push(displayPath(ctx.cwd, file.abs));
          else more += 1;
        }
        if (signal.aborted) return toolError("glob: interrupted by the user.");
        if (found.length === 0) {
          return {
            content: `No files match ${JSON.stringify(input.pattern)} in ${where.rel === "." ? "the project" : where.rel}.`,
            isError: false,
            details: { matches: 0 },
          };
        }
        found.sort();
        const lines = [...found];
        if (more > 0) lines.push(`[${more} more files match; use a narrower pattern or path]`);
        return {
          content: lines.join("\n"),
          isError: false,
          details: { matches: found.length + more, truncated: more > 0 },
        };
      }),
  };
}

/** The skip set for a pattern: a pattern that names a skipped directory opts into searching it. */
export function skippedFor(pattern: string): ReadonlySet<string> {
  const named = pattern.split(/[/\\]/);
  return new Set([...SKIPPED_DIRS].filter((dir) => !named.includes(dir)));
}
