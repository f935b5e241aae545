/** list_dir: the entries of one directory, directories marked with a trailing slash. */
import { z } from "zod";
import { defineTool, fileToolOptions, toolFrame } from "./define.js";
import { type FileToolOptions, nodeFileOperations } from "./file-operations.js";
import { resolveInProject } from "./paths.js";
import { errnoCode, guarded, toolError } from "./result.js";
import type { Tool, ToolContext } from "./types.js";

/** Entries listed at most. */
export const LIST_MAX_ENTRIES = 1000;

/** The list_dir tool's arguments. */
export const listDirSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe('Directory path, relative to the project directory ("." for the project root).'),
});
export type ListDirInput = z.infer<typeof listDirSchema>;

const DESCRIPTION = `List the entries of a directory in the project, sorted by name. Directories end with "/", symbolic links with "@".
- Not recursive; use glob to find files by name pattern across directories.`;

/** The list_dir tool: its schema, description and facts (hooks, rules, `keel hooks test`). */
export const listDirTool = defineTool({
  name: "list_dir",
  description: DESCRIPTION,
  schema: listDirSchema,
  kind: "read",
  primaryArg: "path",
  pathFields: ["path"],
  sample: { path: "." },
  promptRank: 2,
  create: (ctx, opts) => createListDirTool(ctx, fileToolOptions(opts)),
});

/** Creates the list_dir tool. */
export function createListDirTool(
  ctx: ToolContext,
  opts: FileToolOptions = {},
): Tool<ListDirInput> {
  const ops = opts.ops ?? nodeFileOperations;
  return {
    ...toolFrame(listDirTool, ctx),
    run: (input) =>
      guarded("list_dir", async () => {
        const where = resolveInProject({
          tool: "list_dir",
          cwd: ctx.cwd,
          input: input.path,
          access: "read",
          extraReadDirs: opts.extraReadDirs,
        });
        if (!where.ok) return toolError(where.error);
        let entries: Awaited<ReturnType<typeof ops.readdir>>;
        try {
          entries = await ops.readdir(where.abs);
        } catch (err) {
          const code = errnoCode(err);
          if (code === "ENOENT") return toolError(`list_dir: ${where.rel} does not exist.`);
          if (code === "ENOTDIR") {
            return toolError(
              `list_dir: ${where.rel} is a file, not a directory; use read_file to read it.`,
            );
          }
          throw err;
        }
        const names = entries
          .map((e) => e.name + (e.isDirectory() ? "/" : e.isSymbolicLink() ? "@" : ""))
          .sort();
        if (names.length === 0) {
          return {
            content: `(${where.rel} is empty)`,
            isError: false,
            details: { path: where.rel, entries: 0 },
          };
        }
        const shown = names.slice(0, LIST_MAX_ENTRIES);
        if (names.length > shown.length) {
          shown.push(
            `[${names.length - shown.length} more entries not shown; use glob to narrow down]`,
          );
        }
        return {
          content: shown.join("\n"),
          isError: false,
          details: { path: where.rel, entries: names.length },
        };
      }),
  };
}
