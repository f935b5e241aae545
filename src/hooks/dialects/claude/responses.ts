/**
 * Claude Code's `tool_response` for each built-in tool, built from Keel's result (`content`
 * plus the tool's details) and the call's input — the shapes Claude Code 2.1 sends its hooks
 * (measured with `npm run compat:claude`). The dialect applies them (`toolResponses` in its index.ts).
 */
import { resolve } from "node:path";
import { fields, type Input, type Response, str } from "../shared/response-fields.js";
import { structuredPatch } from "../shared/structured-patch.js";

/** The absolute path of the file a call touched (details, else the input made absolute). */
function filePath(r: Response, input: Input): string {
  if (typeof r.absolutePath === "string") return r.absolutePath;
  return resolve(str(input.path));
}

/** Bash: `{stdout, stderr, interrupted, isImage, noOutputExpected}`; output without its last newline. */
export function claudeBashResponse(response: unknown): Response {
  const r = fields(response);
  return {
    stdout: str(r.stdout).replace(/\n+$/, ""),
    stderr: str(r.stderr).replace(/\n+$/, ""),
    interrupted: r.interrupted === true,
    isImage: false,
    noOutputExpected: false,
  };
}

/** Write: `{type, filePath, content, structuredPatch, originalFile, userModified}`. */
export function claudeWriteResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const original = typeof r.originalFile === "string" ? r.originalFile : null;
  const content = str(input.content);
  const created = typeof r.created === "boolean" ? r.created : original === null;
  return {
    type: created ? "create" : "update",
    filePath: filePath(r, input),
    content,
    structuredPatch: original === null || created ? [] : structuredPatch(original, content),
    originalFile: original,
    userModified: false,
  };
}

/** Read: `{type: "text", file: {filePath, content, numLines, startLine, totalLines}}`. */
export function claudeReadResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const text = str(r.text);
  const all = text.split("\n");
  const start = typeof r.from === "number" ? r.from : 1;
  const end = typeof r.to === "number" && r.to < all.length - 1 ? r.to : all.length;
  const shown = all.slice(start - 1, end);
  return {
    type: "text",
    file: {
      filePath: filePath(r, input),
      content: shown.join("\n"),
      numLines: shown.length,
      startLine: start,
      totalLines: all.length,
    },
  };
}

/** Edit: `{filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll}`. */
export function claudeEditResponse(response: unknown, input: Input): Response {
  const r = fields(response);
  const original = str(r.originalFile);
  const oldString = str(input.old_string);
  const newString = str(input.new_string);
  const replaceAll = input.replace_all === true;
  const updated = replaceAll
    ? original.split(oldString).join(newString)
    : original.replace(oldString, () => newString);
  return {
    filePath: filePath(r, input),
    oldString,
    newString,
    originalFile: original,
    structuredPatch: structuredPatch(original, updated),
    userModified: false,
    replaceAll,
  };
}
