/** read_file: a text file with line numbers, a window of lines, and caps that keep requests small. */
import { z } from "zod";
import { IMAGE_MAX_BYTES, imageAttachment, sniffImage } from "../base/index.js";
import { defineTool, fileToolOptions, toolFrame } from "./define.js";
import {
  type FileToolOptions,
  looksBinary,
  nodeFileOperations,
  specialKind,
} from "./file-operations.js";
import { resolveInProject } from "./paths.js";
import { errnoCode, guarded, toolError } from "./result.js";
import type { Tool, ToolContext, ToolResult } from "./types.js";

/** Lines returned when no limit is given. */
export const READ_DEFAULT_LIMIT = 2000;
/** Larger files are refused; the model can use grep or shell (head/sed) instead. */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Bytes of numbered text returned at most; the rest is left for a follow-up call with offset. */
export const READ_MAX_OUTPUT_BYTES = 100_000;
const MAX_LINE_CHARS = 2000;

/** The read_file tool's arguments. */
export const readFileSchema = z.strictObject({
  path: z.string().min(1).describe("File path, relative to the project directory."),
  offset: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to read (default ${READ_DEFAULT_LIMIT}).`),
});
export type ReadFileInput = z.infer<typeof readFileSchema>;

const DESCRIPTION = `Read a text file from the project. Lines come back numbered ("  12\\tcode"); the numbers and the tab are not part of the file.
- path is relative to the project directory; files outside the project cannot be read.
- Reads up to ${READ_DEFAULT_LIMIT} lines by default; use offset and limit to page through long files.
- Lines longer than ${MAX_LINE_CHARS} characters are cut. Binary files are refused.
- Read a file before editing it, so old_string matches exactly.`;

/** Said only to a model that takes images: another would be told of a reading it cannot do
 *  (its read of an image gets a "does not take images" result instead). */
const IMAGE_LINE = `- Images (PNG, JPEG, GIF, WebP; up to ${IMAGE_MAX_BYTES / 1024 / 1024} MB) are the exception: you get the image itself to look at (a screenshot, a diagram).`;

/** The read_file tool: its schema, description and facts (hooks, rules, `keel hooks test`). */
export const readFileTool = defineTool({
  name: "read_file",
  description: DESCRIPTION,
  schema: readFileSchema,
  kind: "read",
  primaryArg: "path",
  pathFields: ["path"],
  sample: { path: "README.md" },
  promptRank: 1,
  create: (ctx, opts) => {
    const tool = createReadFileTool(ctx, fileToolOptions(opts));
    return opts.vision ? { ...tool, description: `${DESCRIPTION}\n${IMAGE_LINE}` } : tool;
  },
});

/** Creates the read_file tool. */
export function createReadFileTool(
  ctx: ToolContext,
  opts: FileToolOptions = {},
): Tool<ReadFileInput> {
  const ops = opts.ops ?? nodeFileOperations;
  return {
    ...toolFrame(readFileTool, ctx),
    run: (input) =>
      guarded("read_file", async () => {
        const where = resolveInProject({
          tool: "read_file",
          cwd: ctx.cwd,
          input: input.path,
          access: "read",
          extraReadDirs: opts.extraReadDirs,
        });
        if (!where.ok) return toolError(where.error);
        let size: number;
        try {
          const st = await ops.stat(where.abs);
          if (st.isDirectory()) {
            return toolError(
              `read_file: ${where.rel} is a directory, not a file; use list_dir to see its entries.`,
            );
          }
          // A FIFO, socket or device is never opened: reading one can block forever.
          if (!st.isFile()) {
            return toolError(
              `read_file: ${where.rel} is ${specialKind(st)}, not a regular file; it was not opened.`,
            );
          }
          size = st.size;
        } catch (err) {
          if (errnoCode(err) === "ENOENT" || errnoCode(err) === "ENOTDIR") {
            return toolError(`read_file: ${where.rel} does not exist.`);
          }
          throw err;
        }
        if (size > READ_MAX_FILE_BYTES) {
          return toolError(
            `read_file: ${where.rel} is ${size} bytes, more than the ${READ_MAX_FILE_BYTES}-byte limit; use grep to find what you need, or shell with head/sed to read part of it.`,
          );
        }
        const bytes = await ops.readFile(where.abs);
        // An image (by its first bytes) is sent to the model as an image, not refused as binary.
        if (sniffImage(bytes) !== null) {
          const read = imageAttachment(`read_file: ${where.rel}`, bytes);
          if (!read.ok) return toolError(read.error);
          return {
            content: `read_file: ${where.rel} is an image (${read.image.mediaType}, ${size} bytes); it is attached in the next message.`,
            isError: false,
            details: { path: where.rel, absolutePath: where.abs, image: read.image.mediaType },
            image: read.image.dataUrl,
          };
        }
        if (looksBinary(bytes)) {
          return toolError(`read_file: ${where.rel} looks like a binary file (${size} bytes).`);
        }
        const text = bytes.toString("utf8");
        const result = renderLines(where.rel, text, input);
        // The file as read and where it is, for hooks (Claude Code's tool_response.file).
        if (!result.isError) result.details = { ...result.details, absolutePath: where.abs, text };
        return result;
      }),
  };
}

function renderLines(rel: string, text: string, input: ReadFileInput): ToolResult {
  if (text.length === 0) {
    return { content: `(${rel} is empty)`, isError: false, details: { path: rel, lines: 0 } };
  }
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const total = lines.length;
  const start = input.offset ?? 1;
  if (start > total) {
    return toolError(
      `read_file: offset ${start} is past the end of ${rel}, which has ${total} lines.`,
    );
  }
  const end = Math.min(total, start - 1 + (input.limit ?? READ_DEFAULT_LIMIT));
  const width = String(end).length;
  const out: string[] = [];
  let bytes = 0;
  let last = start - 1;
  for (let n = start; n <= end; n++) {
    let line = lines[n - 1] ?? "";
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} characters]`;
    }
    const row = `${String(n).padStart(width)}\t${line}`;
    if (bytes + row.length > READ_MAX_OUTPUT_BYTES && out.length > 0) break;
    out.push(row);
    bytes += row.length + 1;
    last = n;
  }
  if (last < total) {
    out.push(
      `[showing lines ${start}-${last} of ${total}; call again with offset=${last + 1} to read more]`,
    );
  }
  return {
    content: out.join("\n"),
    isError: false,
    details: { path: rel, lines: total, from: start, to: last },
  };
}
