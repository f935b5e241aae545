/** Turning one validated handler entry into a HandlerConfig, and the shared reader plumbing. */
import type { z } from "zod";
import type { HookEventName } from "../events.js";
import type { HandlerCommon, HandlerConfig, HookProblem } from "../types.js";
import { type FieldPath, formatField } from "./positions.js";
import type { ReadContext } from "./read-context.js";
import type { HandlerInput } from "./schema.js";
import { nearestField } from "./unknown-fields.js";

export type { ReadContext };

/** The handler types Keel runs. */
const HANDLER_TYPES = ["command", "http", "prompt", "agent", "mcp_tool"] as const;

/** A hook as read from a file, before matchers and conditions are compiled. */
export interface RawHook {
  event: HookEventName;
  matcher: string | undefined;
  handler: HandlerConfig;
  /** Where the handler was written. */
  at: FieldPath;
  /** Where the matcher was written (a nested group's `matcher`, or the flat entry's own). */
  matcherAt?: FieldPath;
  /** Warnings about this hook that do not stop it. */
  problems: HookProblem[];
  /** Set on hooks of a group that runs its hooks one after another (Gemini's `sequential`):
   *  the same value for every hook of that group. */
  sequentialGroup?: string;
}

/** The problems of a failed zod parse, each located at its field. */
export function zodProblems(ctx: ReadContext, at: FieldPath, error: z.ZodError): HookProblem[] {
  return error.issues.map((issue) => {
    const path = [...at, ...issue.path.filter((p): p is string | number => typeof p !== "symbol")];
    return ctx.problem("error", path, `${formatField(path) || "file"}: ${issue.message}`);
  });
}

function common(input: HandlerInput): HandlerCommon {
  const out: HandlerCommon = {};
  if (input.timeout !== undefined) out.timeout = input.timeout;
  const cond = input.if ?? input.condition;
  if (cond !== undefined) out.if = cond;
  const isAsync = input.async ?? input.async_mode;
  if (isAsync !== undefined) out.async = isAsync;
  if (input.onTimeout !== undefined) out.onTimeout = input.onTimeout;
  if (input.onError !== undefined) out.onError = input.onError;
  if (input.onFailure !== undefined) out.onFailure = input.onFailure;
  if (input.description !== undefined) out.description = input.description;
  if (input.statusMessage !== undefined) out.statusMessage = input.statusMessage;
  if (input.once !== undefined) out.once = input.once;
  if (input.asyncRewake !== undefined) out.asyncRewake = input.asyncRewake;
  return out;
}

/**
 * The program and arguments of an exec-form hook. Claude Code's (2.1.139 on): `command` names
 * the program and `args` holds its arguments (`{"command": "node", "args": ["check.js"]}`, `args`
 * may be empty); Keel's own: `args` alone, the program first (`["node", "check.js"]`).
 */
function execForm(
  command: string | undefined,
  args: string[],
  ctx: ReadContext,
  at: FieldPath,
): { argv: string[]; warnings: HookProblem[] } | { problems: HookProblem[] } {
  if (command === undefined) {
    if (args.length > 0) return { argv: args, warnings: [] };
    const path = [...at, "args"];
    return {
      problems: [
        ctx.problem("error", path, `${formatField(path)}: empty; name the program to run first`),
      ],
    };
  }
  // As Claude Code warns: exec form runs `command` as one program name, never through a shell.
  const warnings = /\s/.test(command.trim())
    ? [
        ctx.problem(
          "warning",
          [...at, "command"],
          `${formatField([...at, "command"])}: has both "args" and spaces in "command"; exec form runs "command" as one program name — move the rest into "args" ({"command": "node", "args": ["script.js"]})`,
        ),
      ]
    : [];
  return { argv: [command, ...args], warnings };
}

/** What building one handler gives: the handler (none when it cannot run) and its problems. */
type Built = { handler?: HandlerConfig; problems: HookProblem[] };

/** The error of a field a handler type needs and the entry does not have. */
function missing(ctx: ReadContext, at: FieldPath, field: string, message: string): Built {
  return {
    problems: [ctx.problem("error", [...at, field], `${formatField([...at, field])}: ${message}`)],
  };
}

function commandHandler(
  input: HandlerInput,
  base: HandlerCommon,
  ctx: ReadContext,
  at: FieldPath,
): Built {
  if (input.command === undefined && input.args === undefined) {
    return missing(ctx, at, "command", "a command hook needs `command` or `args`");
  }
  const problems: HookProblem[] = [];
  const handler: HandlerConfig = { type: "command", ...base };
  if (input.args !== undefined) {
    const exec = execForm(input.command, input.args, ctx, at);
    if ("problems" in exec) return exec;
    handler.args = exec.argv;
    problems.push(...exec.warnings);
  } else if (input.command !== undefined) handler.command = input.command;
  if (input.cwd !== undefined) handler.cwd = input.cwd;
  if (input.shell !== undefined) handler.shell = input.shell;
  return { handler, problems };
}

function httpHandler(
  input: HandlerInput,
  base: HandlerCommon,
  ctx: ReadContext,
  at: FieldPath,
): Built {
  if (input.url === undefined) return missing(ctx, at, "url", "an http hook needs `url`");
  const handler: HandlerConfig = { type: "http", ...base, url: input.url };
  if (input.headers !== undefined) handler.headers = input.headers;
  if (input.allowedEnvVars !== undefined) handler.allowedEnvVars = input.allowedEnvVars;
  const template = input.payloadTemplate ?? input.payload_template;
  if (template !== undefined) handler.payloadTemplate = template;
  return { handler, problems: [] };
}

function promptOrAgentHandler(
  type: "prompt" | "agent",
  input: HandlerInput,
  base: HandlerCommon,
  ctx: ReadContext,
  at: FieldPath,
): Built {
  if (input.prompt === undefined)
    return missing(ctx, at, "prompt", `a ${type} hook needs \`prompt\``);
  const problems: HookProblem[] = [];
  const handler: HandlerConfig =
    type === "prompt"
      ? { type, ...base, prompt: input.prompt }
      : { type, ...base, prompt: input.prompt };
  if (input.model !== undefined) handler.model = input.model;
  if (handler.type === "agent" && input.maxTurns !== undefined) {
    handler.maxTurns = input.maxTurns;
  }
  if (handler.async) {
    problems.push(
      ctx.problem("warning", [...at, "async"], `async is only for command and http hooks; ignored`),
    );
    delete handler.async;
  }
  return { handler, problems };
}

function mcpToolHandler(
  input: HandlerInput,
  base: HandlerCommon,
  ctx: ReadContext,
  at: FieldPath,
): Built {
  if (input.server === undefined)
    return missing(ctx, at, "server", "an mcp_tool hook needs `server`");
  if (input.tool === undefined) return missing(ctx, at, "tool", "an mcp_tool hook needs `tool`");
  const handler: HandlerConfig = {
    type: "mcp_tool",
    ...base,
    server: input.server,
    tool: input.tool,
  };
  if (input.input !== undefined) handler.input = input.input;
  delete handler.async;
  return { handler, problems: [] };
}

/** A type Keel does not run: never runs, named as a likely misspelling where it is one. */
function unknownType(type: string, input: HandlerInput, ctx: ReadContext, at: FieldPath): Built {
  // "comand", "Command", "http_hook": most unknown types are misspellings of a known one.
  const near = nearestField(type, HANDLER_TYPES);
  const typo = near !== undefined;
  const p = ctx.problem(
    ctx.dialect === "claude" && !typo ? "warning" : "error",
    [...at, input.type !== undefined ? "type" : "mode"],
    `unsupported hook type "${type}"; this hook never runs${typo ? `; did you mean "${near}"?` : " (Keel runs command, http, prompt, agent and mcp_tool hooks)"}`,
  );
  p.neverRuns = true;
  return { problems: [p] };
}

/**
 * Builds the HandlerConfig of an entry. Returns no handler (and an error) when the entry
 * cannot run at all; warnings about fields that are ignored come back with the handler.
 */
export function toHandlerConfig(input: HandlerInput, ctx: ReadContext, at: FieldPath): Built {
  const type = input.type ?? input.mode ?? (input.url !== undefined ? "http" : "command");
  const base = common(input);
  switch (type) {
    case "command":
      return commandHandler(input, base, ctx, at);
    case "http":
      return httpHandler(input, base, ctx, at);
    case "prompt":
    case "agent":
      return promptOrAgentHandler(type, input, base, ctx, at);
    case "mcp_tool":
      return mcpToolHandler(input, base, ctx, at);
    default:
      return unknownType(type, input, ctx, at);
  }
}
