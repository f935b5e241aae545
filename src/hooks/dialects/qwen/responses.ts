/**
 * Qwen Code's `tool_response` for each built-in tool, built from Keel's result (`content` plus
 * the tool's details) and the call's input: Qwen hands its hooks the tool's whole result,
 * `{llmContent, returnDisplay}` — what the model was sent and what the user was shown; file
 * edits show a diff object (measured from Qwen Code 0.15 with `npm run compat:qwen`). The Qwen and
 * Gemini dialects apply them (`toolResponses` in their index.ts).
 */
import { basename, resolve } from "node:path";
import { fields, type Input, type Response, str } from "../shared/response-fields.js";
import { type PatchHunk, structuredPatch } from "../shared/structured-patch.js";

/** run_shell_command: the model's text, and the raw output without its last newline. */
export function qwenShellResponse(response: unknown): Response {
  const r = fields(response);
  const raw =
    typeof r.stdout === "string" || typeof r.stderr === "string"
      ? str(r.stdout) + str(r.stderr)
      : str(r.content);
  return { llmContent: str(r.content), returnDisplay: raw.replace(/\n+$/, "") };
}

/** read_file: the lines read as plain text (no line numbers); nothing displayed. */
export function qwenReadResponse(response: unknown): Response {
  const r = fields(response);
  const text = str(r.text);
  if (text === "") return { llmContent: "", returnDisplay: "" };
  const all = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const start = typeof r.from === "number" ? r.from : 1;
  const end = typeof r.to === "number" && r.to < all.length ? r.to : all.length;
  const shown = all.slice(start - 1, end);
  return { llmContent: `${shown.join("\n")}\n`, returnDisplay: "" };
}

/** write_file: the model's text and the diff shown (`Original` → `Written`). */
export function qwenWriteResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const original = typeof r.originalFile === "string" ? r.originalFile : "";
  const display = fileDiffDisplay(r, input, original, str(input.content), ["Original", "Written"]);
  return { llmContent: str(r.content), returnDisplay: display };
}

/** edit: the model's text and the diff shown (`Current` → `Proposed`). */
export function qwenEditResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const original = str(r.originalFile);
  const oldString = str(input.old_string);
  const newString = str(input.new_string);
  const updated =
    input.replace_all === true
      ? original.split(oldString).join(newString)
      : original.replace(oldString, () => newString);
  const display = fileDiffDisplay(r, input, original, updated, ["Current", "Proposed"]);
  return { llmContent: str(r.content), returnDisplay: display };
}

/** Gemini CLI 0.61 (Qwen's upstream) adds the absolute path and two flags to the diff display. */
function withGeminiFields(display: Response, path: string, created: boolean): Response {
  const { fileDiff, fileName, ...rest } = display;
  return {
    fileDiff,
    fileName,
    filePath: path,
    ...rest,
    isNewFile: created,
    isBuildFile: false,
  };
}

function absolutePath(r: Response, input: Input): string {
  return typeof r.absolutePath === "string" ? r.absolutePath : resolve(str(input.path));
}

/** write_file as Gemini CLI shows its hooks: Qwen's shape plus `filePath`, `isNewFile`, `isBuildFile`. */
export function geminiWriteResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const out = qwenWriteResponse(response, input);
  const created = typeof r.created === "boolean" ? r.created : typeof r.originalFile !== "string";
  const display = withGeminiFields(out.returnDisplay as Response, absolutePath(r, input), created);
  return { ...out, returnDisplay: display };
}

/** replace as Gemini CLI shows its hooks (see geminiWriteResponse). */
export function geminiEditResponse(response: unknown, input: Input): Response {
  const out = qwenEditResponse(response, input);
  const path = absolutePath(fields(response), input);
  return { ...out, returnDisplay: withGeminiFields(out.returnDisplay as Response, path, false) };
}

/** Qwen's FileDiff display: a unified diff, the file's name and absolute path, both contents
 *  and line/char counts. */
function fileDiffDisplay(
  r: Response,
  input: Input,
  before: string,
  after: string,
  labels: [string, string],
): Response {
  const path = absolutePath(r, input);
  const name = basename(path);
  const hunks = structuredPatch(before, after);
  return {
    fileDiff: unifiedDiff(name, hunks, labels),
    fileName: name,
    // Qwen Code 0.24 names the absolute path too (0.15 did not; Gemini CLI always has).
    filePath: path,
    originalContent: before,
    newContent: after,
    diffStat: diffStat(hunks),
  };
}

/** jsdiff's createPatch text for the hunks. */
export function unifiedDiff(name: string, hunks: readonly PatchHunk[], labels: [string, string]) {
  let out = `Index: ${name}\n${"=".repeat(67)}\n--- ${name}\t${labels[0]}\n+++ ${name}\t${labels[1]}\n`;
  for (const h of hunks) {
    out += `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n`;
    for (const line of h.lines) out += `${line}\n`;
  }
  return out;
}

function diffStat(hunks: readonly PatchHunk[]): Response {
  let added = 0;
  let removed = 0;
  let addedChars = 0;
  let removedChars = 0;
  for (const line of hunks.flatMap((h) => h.lines)) {
    if (line.startsWith("+")) {
      added++;
      addedChars += line.length - 1;
    } else if (line.startsWith("-")) {
      removed++;
      removedChars += line.length - 1;
    }
  }
  return {
    model_added_lines: added,
    model_removed_lines: removed,
    model_added_chars: addedChars,
    model_removed_chars: removedChars,
    user_added_lines: 0,
    user_removed_lines: 0,
    user_added_chars: 0,
    user_removed_chars: 0,
  };
}
