/** edit_file: replaces an exact string in a file; refuses ambiguous or empty edits with a clear reason. */
import { z } from "zod";
import { defineTool, fileToolOptions, toolFrame } from "./define.js";
import { type FileToolOptions, looksBinary, nodeFileOperations } from "./file-operations.js";
import { resolveInProject } from "./paths.js";
import { errnoCode, guarded, toolError } from "./result.js";
import type { Tool, ToolContext } from "./types.js";

/** The edit_file tool's arguments. */
export const editFileSchema = z.strictObject({
  path: z.string().min(1).describe("File path, relative to the project directory."),
  old_string: z
    .string()
    .describe("The exact text to replace, including whitespace and indentation."),
  new_string: z.string().describe("The text to put in its place."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of requiring exactly one (default false)."),
});
export type EditFileInput = z.infer<typeof editFileSchema>;

const DESCRIPTION = `Replace exact text in an existing file.
- old_string must match the file exactly (whitespace and indentation included) and, unless replace_all is true, occur exactly once; include a few surrounding lines to make it unique.
- Do not include the line numbers read_file shows.
- To create a file or rewrite it completely, use write_file.`;

/** The edit_file tool: its schema, description and facts (hooks, rules, `keel hooks test`). */
export const editFileTool = defineTool({
  name: "edit_file",
  description: DESCRIPTION,
  schema: editFileSchema,
  kind: "write",
  primaryArg: "path",
  pathFields: ["path"],
  sample: { path: "hello.txt", old_string: "hello", new_string: "goodbye" },
  create: (ctx, opts) => createEditFileTool(ctx, fileToolOptions(opts)),
});

/** Creates the edit_file tool. */
export function createEditFileTool(
  ctx: ToolContext,
  opts: FileToolOptions = {},
): Tool<EditFileInput> {
  const ops = opts.ops ?? nodeFileOperations;
  return {
    ...toolFrame(editFileTool, ctx),
    run: (input) =>
      guarded("edit_file", async () => {
        const where = resolveInProject({
          tool: "edit_file",
          cwd: ctx.cwd,
          input: input.path,
          access: "write",
        });
        if (!where.ok) return toolError(where.error);
        const rel = where.rel;
        if (input.old_string === "") {
          return toolError(
            `edit_file: old_string is empty; give the exact text to replace, or use write_file to create ${rel}.`,
          );
        }
        if (input.old_string === input.new_string) {
          return toolError(
            "edit_file: old_string and new_string are identical, so the edit would change nothing.",
          );
        }
        let bytes: Buffer;
        try {
          if ((await ops.stat(where.abs)).isDirectory()) {
            return toolError(`edit_file: ${rel} is a directory, not a file.`);
          }
          bytes = await ops.readFile(where.abs);
        } catch (err) {
          if (errnoCode(err) === "ENOENT" || errnoCode(err) === "ENOTDIR") {
            return toolError(`edit_file: ${rel} does not exist; use write_file to create it.`);
          }
          throw err;
        }
        if (looksBinary(bytes)) return toolError(`edit_file: ${rel} looks like a binary file.`);
        const text = bytes.toString("utf8");
        let oldString = input.old_string;
        let newString = input.new_string;
        let count = countOccurrences(text, oldString);
        // Models write \n; Windows-style files hold \r\n. Match them in the file's own style.
        if (count === 0 && text.includes("\r\n") && !oldString.includes("\r\n")) {
          oldString = oldString.replace(/\n/g, "\r\n");
          newString = newString.replace(/\n/g, "\r\n");
          count = countOccurrences(text, oldString);
        }
        if (count === 0) {
          return toolError(
            `edit_file: old_string was not found in ${rel}. Read the file again and copy the text exactly, including whitespace and indentation (without read_file's line numbers).`,
          );
        }
        if (count > 1 && input.replace_all !== true) {
          return toolError(
            `edit_file: old_string was found ${count} times in ${rel}; add surrounding lines to make it unique or set replace_all.`,
          );
        }
        const updated = text.split(oldString).join(newString);
        await ops.writeFile(where.abs, updated);
        const line = text.slice(0, text.indexOf(oldString)).split("\n").length;
        return {
          content: `Edited ${rel}: replaced ${count} occurrence${count === 1 ? "" : "s"} (first at line ${line}).`,
          isError: false,
          details: {
            path: rel,
            absolutePath: where.abs,
            originalFile: text,
            replacements: count,
            firstLine: line,
            oldString: input.old_string,
            newString: input.new_string,
          },
        };
      }),
  };
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}
