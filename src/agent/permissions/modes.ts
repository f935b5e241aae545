/**
 * Permission decisions (design §3): pure functions from the mode, the tool's kind and its input
 * to allow / ask / refuse. The agent turns `ask` into a PermissionRequest hook, then the user.
 */

import type { SandboxStatus, ToolKind } from "../../tools/index.js";
import { autoApprove } from "./auto-approve/index.js";

/** Every permission mode (the same strings hooks see as `permission_mode`), in cycling order. */
export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;

/** A permission mode. */
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** What the mode says about one call. */
export type PermissionVerdict =
  /** `sandboxed`: allowed by Keel's own rules, not a person's choice: run in the OS sandbox. */
  | { kind: "allow"; sandboxed?: boolean }
  | { kind: "ask"; reason: string }
  | { kind: "refuse"; reason: string };

/**
 * Whether a shell command line may run without asking: decided by the shell parser and the
 * per-command flag allowlist in auto-approve/ (such commands then run in the OS sandbox).
 */
export function isReadOnlyCommand(command: string): boolean {
  return autoApprove(command).approved;
}

/**
 * What an "allow always" answer remembers, for the session: the key it is kept under, the same
 * thing in words for the prompt's label, and as a permission rule (a tool and its specifier, as
 * `Bash(npm test)` or `WebFetch(domain:example.com)` are written) for PermissionRequest's
 * `permission_suggestions`. Built side by side so neither the label nor the suggestion can
 * promise more or less than the key allows: one exact shell command, one host, or every later
 * call of a tool whatever its arguments.
 */
export interface AllowScope {
  key: string;
  label: string;
  rule: { toolName: string; ruleContent?: string };
}

/** See `AllowScope`. */
export function allowScope(
  toolName: string,
  kind: ToolKind,
  primary: string | undefined,
): AllowScope {
  if (kind === "shell") {
    const command = primary ?? "";
    const shown =
      command.length <= 40 && !command.includes("\n") ? `\`${command}\`` : "this exact command";
    return {
      key: `${toolName}:${command}`,
      label: `Always allow ${shown} for this session`,
      rule: { toolName, ruleContent: command },
    };
  }
  if (kind === "network") {
    // "Always" covers one host: approving docs.example.com is not approving every address.
    const host = hostOf(primary);
    if (host !== undefined) {
      return {
        key: `${toolName}:domain:${host}`,
        label: `Always allow ${toolName} to ${host} for this session`,
        rule: { toolName, ruleContent: `domain:${host}` },
      };
    }
  }
  // A write tool's primary argument is the path it writes (write_file, edit_file).
  const any = kind === "write" && primary !== undefined ? "on any file" : "with any arguments";
  return {
    key: toolName,
    label: `Allow all ${toolName} calls for this session, ${any}`,
    rule: { toolName },
  };
}

/**
 * What `mode` says about a call of a tool of `kind` whose primary argument is `primary`.
 * Shell commands are approved on Keel's own authority only where `sandbox` is available; they
 * then carry `sandboxed`. Without it (the default), every shell command needs a person.
 */
export function modeVerdict(opts: {
  mode: PermissionMode;
  toolName: string;
  kind: ToolKind;
  primary: string | undefined;
  sandbox?: SandboxStatus;
  /** Deny or ask Read rules exist (auto-approval then holds back git commands that print
   *  stored file contents). */
  readRestricted?: boolean;
}): PermissionVerdict {
  const { mode, toolName, kind, primary } = opts;
  if (mode === "bypassPermissions" || kind === "read" || kind === "session")
    return { kind: "allow" };
  if (kind === "shell") {
    const auto =
      primary === undefined
        ? ({ approved: false, reason: "no command" } as const)
        : autoApprove(primary, { readRestricted: opts.readRestricted === true });
    const sandbox = opts.sandbox ?? { available: false, reason: "no sandbox was given" };
    if (auto.approved && sandbox.available) return { kind: "allow", sandboxed: true };
    if (mode === "plan" && !auto.approved) {
      return {
        kind: "refuse",
        reason: `${toolName} is not allowed in plan mode: only read-only commands run while planning (${auto.reason}). Describe the change instead.`,
      };
    }
    if (auto.approved && !sandbox.available) {
      return {
        kind: "ask",
        reason: `no command runs without approval because the OS sandbox is not available: ${sandbox.reason}`,
      };
    }
    return { kind: "ask", reason: auto.approved ? "" : auto.reason };
  }
  if (kind === "network") {
    // No local side effects, but the request itself carries data out (a URL can hold anything
    // the model read): a person approves it in every mode, plan mode and acceptEdits included.
    return { kind: "ask", reason: `${toolName} sends a request to the web` };
  }
  if (mode === "plan") {
    return {
      kind: "refuse",
      reason: `${toolName} is not allowed in plan mode: only read-only tools run while planning. Describe the change instead.`,
    };
  }
  return mode === "acceptEdits"
    ? { kind: "allow" }
    : { kind: "ask", reason: `${toolName} changes files` };
}

/** The host of a URL (lower-case, as the URL parser spells it), or undefined. */
export function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
