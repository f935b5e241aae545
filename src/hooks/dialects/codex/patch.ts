/**
 * Keel's file tools as Codex's `apply_patch` hooks see them, and back. Codex edits files only
 * through `apply_patch`, whose hook input is `{command: <patch text>}` (measured from codex
 * 0.171 by `npm run compat:codex`: `*** Begin Patch` / `*** Add File: a.txt` / `+line` /
 * `*** End Patch`). So write_file becomes one Add File hunk of its content, and edit_file one
 * Update File hunk replacing old_string's lines by new_string's, with the path as the model
 * wrote it (Codex's model writes project-relative paths).
 */
import type { ToolInput } from "../../events.js";

/** The patch text of a write_file call: one Add File hunk. */
export function writePatch(path: string, content: string): string {
  return `*** Begin Patch\n*** Add File: ${path}\n${plusLines(content)}*** End Patch\n`;
}

/** The patch text of an edit_file call: one Update File hunk (`@@`, `-old`, `+new`). */
export function editPatch(path: string, oldText: string, newText: string): string {
  const minus = lines(oldText)
    .map((l) => `-${l}\n`)
    .join("");
  return `*** Begin Patch\n*** Update File: ${path}\n@@\n${minus}${plusLines(newText)}*** End Patch\n`;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n");
}

function plusLines(text: string): string {
  return lines(text)
    .map((l) => `+${l}\n`)
    .join("");
}

/** What a hook's rewritten patch says, when it is one hunk Keel's tools can express. */
export type PatchCall =
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; oldText: string; newText: string };

/**
 * Reads a patch of one Add File hunk (→ write_file) or one Update File hunk with one change
 * (→ edit_file). Anything else (several files, a delete, a move, several changes) is null:
 * Keel's tool call cannot carry it.
 */
export function readPatch(patch: string): PatchCall | null {
  const rows = patch.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
  if (rows[0]?.trim() !== "*** Begin Patch" || rows.at(-1)?.trim() !== "*** End Patch") {
    return null;
  }
  const body = rows.slice(1, -1);
  const head = body[0] ?? "";
  const rest = body.slice(1);
  const add = /^\*\*\* Add File: (.+)$/.exec(head);
  if (add?.[1]) {
    if (!rest.every((r) => r.startsWith("+"))) return null;
    const content = rest.map((r) => r.slice(1)).join("\n");
    return { kind: "write", path: add[1].trim(), content: rest.length > 0 ? `${content}\n` : "" };
  }
  const update = /^\*\*\* Update File: (.+)$/.exec(head);
  if (!update?.[1]) return null;
  const change = rest[0]?.startsWith("@@") ? rest.slice(1) : rest;
  if (change.some((r) => r.startsWith("@@") || r.startsWith("***"))) return null;
  const oldRows: string[] = [];
  const newRows: string[] = [];
  for (const r of change) {
    const text = r.slice(1);
    if (r.startsWith("-")) oldRows.push(text);
    else if (r.startsWith("+")) newRows.push(text);
    else if (r.startsWith(" ") || r === "") {
      // A context line belongs to both sides.
      oldRows.push(text);
      newRows.push(text);
    } else return null;
  }
  return {
    kind: "edit",
    path: update[1].trim(),
    oldText: oldRows.join("\n"),
    newText: newRows.join("\n"),
  };
}

/** Keel's write_file / edit_file input as the `{command}` Codex's hooks see. */
export function patchInput(keelTool: string, input: ToolInput): ToolInput | null {
  const path = typeof input.path === "string" ? input.path : null;
  if (path === null) return null;
  if (keelTool === "write_file" && typeof input.content === "string") {
    return { command: writePatch(path, input.content) };
  }
  if (
    keelTool === "edit_file" &&
    typeof input.old_string === "string" &&
    typeof input.new_string === "string"
  ) {
    return { command: editPatch(path, input.old_string, input.new_string) };
  }
  return null;
}

/**
 * A hook's `{command: <patch>}` back in Keel's fields for the same tool. Null when the patch
 * is not one hunk of the tool's own kind (a rewrite Keel cannot carry out as this call).
 */
export function inputFromPatch(keelTool: string, patch: unknown): ToolInput | null {
  if (typeof patch !== "string") return null;
  const call = readPatch(patch);
  if (call === null) return null;
  if (keelTool === "write_file" && call.kind === "write") {
    return { path: call.path, content: call.content };
  }
  if (keelTool === "edit_file" && call.kind === "edit") {
    // The hook saw edit_file's strings as whole lines: a trailing newline it kept stays off.
    return { path: call.path, old_string: call.oldText, new_string: call.newText };
  }
  return null;
}
