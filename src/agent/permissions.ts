/**
 * Permission decisions (design §3): pure functions from the mode, the tool's kind and its input
 * to allow / ask / refuse. The agent turns `ask` into a PermissionRequest hook, then the user.
 */
import type { ToolKind } from "../tools/types.js";

/** Every permission mode (the same strings hooks see as `permission_mode`), in cycling order. */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

/** A permission mode. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** What the mode says about one call. */
export type PermissionVerdict =
  | { kind: "allow" }
  | { kind: "ask"; reason: string }
  | { kind: "refuse"; reason: string };

/** Commands that only read, allowed without asking when every part of the command line is one. */
const READ_ONLY_COMMANDS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "printf",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "which",
  "file",
  "stat",
  "tree",
  "du",
  "df",
  "date",
  "uname",
  "whoami",
  "sort",
  "uniq",
  "cut",
  "diff",
  "cmp",
  "basename",
  "dirname",
  "realpath",
  "true",
  "false",
  "test",
  "nl",
  "tr",
  "md5sum",
  "sha256sum",
]);

/** git subcommands that only read (with no write-ish flags, checked below). */
const READ_ONLY_GIT = new Set([
  "status",
  "diff",
  "log",
  "show",
  "blame",
  "ls-files",
  "rev-parse",
  "describe",
  "shortlog",
  "grep",
]);

/** Flags that make an otherwise read-only command write or execute. */
const WRITE_FLAGS = /(^|\s)(-exec|-execdir|-delete|-ok|-fprint\S*|-o|--output(=\S*)?)(\s|$)/;

/**
 * Whether a shell command line only reads: every part (split on `&&`, `||`, `;`, `|`) starts with
 * an allowlisted command, and nothing redirects output, substitutes commands or runs in background.
 */
export function isReadOnlyCommand(command: string): boolean {
  if (/[<>`]|\$\(|&(?!&)|\n/.test(command.replace(/&&/g, " "))) return false;
  const parts = command.split(/&&|\|\||;|\|/);
  return parts.every((part) => {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const [head, sub] = words;
    if (head === undefined) return false;
    if (WRITE_FLAGS.test(part)) return false;
    if (head === "git") {
      if (sub === "branch")
        return words.length === 2 || /^(-a|-v|-vv|--list|-r)$/.test(words[2] ?? "");
      return sub !== undefined && READ_ONLY_GIT.has(sub);
    }
    return READ_ONLY_COMMANDS.has(head);
  });
}

/** The key an "allow always" answer is remembered under for this session. */
export function allowKey(toolName: string, kind: ToolKind, primary: string | undefined): string {
  return kind === "shell" ? `${toolName}:${primary ?? ""}` : toolName;
}

/** What `mode` says about a call of a tool of `kind` whose primary argument is `primary`. */
export function modeVerdict(opts: {
  mode: PermissionMode;
  toolName: string;
  kind: ToolKind;
  primary: string | undefined;
}): PermissionVerdict {
  const { mode, toolName, kind, primary } = opts;
  if (mode === "bypassPermissions" || kind === "read") return { kind: "allow" };
  const readOnlyShell = kind === "shell" && primary !== undefined && isReadOnlyCommand(primary);
  if (readOnlyShell) return { kind: "allow" };
  if (mode === "plan") {
    return {
      kind: "refuse",
      reason: `${toolName} is not allowed in plan mode: only read-only tools run while planning. Describe the change instead.`,
    };
  }
  if (kind === "write") {
    return mode === "acceptEdits"
      ? { kind: "allow" }
      : { kind: "ask", reason: `${toolName} changes files` };
  }
  return { kind: "ask", reason: "the command is not on the read-only allowlist" };
}
