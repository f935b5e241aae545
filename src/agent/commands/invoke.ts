/**
 * Running a `/NAME args` prompt: find the custom command, expand it (each `!`cmd`` is a shell
 * call through the execution pipeline, pipeline/index.ts), fire UserPromptExpansion, and hand the agent the prompt
 * (and the command's model) to run as the turn. A prompt that names no command is left alone.
 */

import type { HookEngine } from "../../hooks/index.js";
import type { AgentEvent } from "../events.js";
import {
  fireHook,
  type HookSessionInfo,
  isVeto,
  vetoingHooks,
  vetoReason,
} from "../hook-adapter/fire.js";
import { type PipelineContext, readBarTestOf } from "../pipeline/index.js";
import { allowanceFrom, type TurnAllowance } from "./allowed-tools.js";
import { commandShell } from "./command-shell.js";
import { type Expansion, expandCommand, type ShellRunner } from "./expand.js";
import { type CommandCatalog, type CommandSource, findCommand } from "./load.js";
import { expandMcpPrompt, isMcpPromptName, type McpPromptSource } from "./mcp-prompt.js";

/** What invoking needs from the agent. */
export interface InvokeContext {
  catalog: CommandCatalog;
  projectDir: string;
  hooks: HookEngine;
  info: HookSessionInfo;
  /** The agent's execution pipeline context: a command's !`cmd` is decided like any call. */
  pipeline: PipelineContext;
  /** The session's MCP servers, for `/mcp__<server>__<prompt>` (absent: no servers). */
  mcpPrompts?: McpPromptSource;
}

/** The outcome: not a command, the prompt to run, or why it cannot run. */
export type Invocation =
  | { kind: "none" }
  | {
      kind: "prompt";
      prompt: string;
      model: string | null;
      name: string;
      /** Tools pre-approved for this turn (a user command's allowed-tools), or null. */
      allowed: TurnAllowance | null;
    }
  | { kind: "refused"; reason: string };

/** Parses `/name args` (null when the text is not a slash invocation). */
export function parseCommandLine(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m?.[1]) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}

/** Expands a custom command prompt; yields hook runs and notices. Never throws. */
export async function* invokeCommand(
  ctx: InvokeContext,
  text: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Invocation> {
  const line = parseCommandLine(text);
  if (line === null) return { kind: "none" };
  if (isMcpPromptName(line.name) && findCommand(ctx.catalog, line.name) === undefined) {
    const expanded = ctx.mcpPrompts
      ? await expandMcpPrompt(ctx.mcpPrompts, line.name, line.args, signal)
      : ({
          ok: false,
          error: `unknown MCP prompt /${line.name}: no MCP servers in this session`,
        } as const);
    const turn = yield* afterExpansion(
      ctx,
      { name: line.name, args: line.args, source: "mcp" },
      expanded,
      signal,
    );
    if (turn.kind === "prompt" && expanded.ok) {
      yield {
        type: "notice",
        level: "info",
        text: `/${line.name}: MCP prompt of server ${expanded.server ?? "?"}`,
      };
    }
    return turn;
  }
  const command = findCommand(ctx.catalog, line.name);
  if (command === undefined) {
    // As the TUI and Claude Code do: a mistyped `/comit` is not sent to the model as text.
    const known = ctx.catalog.commands.map((c) => `/${c.name}`);
    return {
      kind: "refused",
      reason: `unknown command /${line.name}: ${known.length > 0 ? `the custom commands here are ${known.join(", ")}` : "there are no custom commands here (.keel/commands, .claude/commands, yours, or an enabled plugin's: keel plugins list)"}. To send text that begins with "/", begin it another way.`,
    };
  }
  // The !`cmd` runs as a shell tool call through the one pipeline: rules, mode, hooks, sandbox.
  const pipelineEvents: AgentEvent[] = [];
  const runShell: ShellRunner = (cmd) =>
    commandShell(ctx, cmd, `${command.name}-${pipelineEvents.length}`, signal, pipelineEvents);
  const expanded = await expandCommand(command, line.args, {
    projectDir: ctx.projectDir,
    runShell,
    readBarred: readBarTestOf(ctx.pipeline),
  });
  yield* pipelineEvents;
  const expandedTurn = yield* afterExpansion(
    ctx,
    { name: command.name, args: line.args, source: command.source },
    expanded,
    signal,
  );
  if (expandedTurn.kind !== "prompt") return expandedTurn;
  yield {
    type: "notice",
    level: "info",
    text: `/${command.name}: ${command.description} (${command.source} command, ${command.path})`,
  };
  const prompt = expandedTurn.prompt;
  let allowed: TurnAllowance | null = null;
  if (command.allowedTools.length > 0) {
    if (command.source === "user" || command.source === "plugin") {
      allowed = allowanceFrom(command.allowedTools);
    } else {
      yield {
        type: "notice",
        level: "info",
        text: `/${command.name}: allowed-tools of a project command grant nothing (project files never approve calls); calls are asked about as usual`,
      };
    }
  }
  return { kind: "prompt", prompt, model: command.model, name: command.name, allowed };
}

/**
 * What every expanded command goes through before it becomes the turn: UserPromptExpansion
 * (which may refuse it or add context), for custom commands and MCP prompts alike.
 */
async function* afterExpansion(
  ctx: InvokeContext,
  command: { name: string; args: string; source: CommandSource | "mcp" },
  expanded: Expansion,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, Invocation> {
  if (!expanded.ok) return { kind: "refused", reason: expanded.error };
  const decision = yield* fireHook(
    ctx.hooks,
    ctx.info,
    "UserPromptExpansion",
    {
      // Claude Code's field: which kind of expansion this is.
      expansion_type: command.source === "mcp" ? "mcp_prompt" : "slash_command",
      command_name: command.name,
      command_args: command.args,
      command_source: command.source,
      prompt: expanded.prompt,
    },
    signal,
  );
  if (isVeto(decision)) {
    return {
      kind: "refused",
      reason: `/${command.name} blocked by ${vetoingHooks(decision)}: ${vetoReason(decision)}`,
    };
  }
  let prompt = expanded.prompt;
  if (decision.additionalContext?.trim()) {
    prompt = `${prompt}\n\n<hook-context event="UserPromptExpansion">\n${decision.additionalContext.trim()}\n</hook-context>`;
  }
  return { kind: "prompt", prompt, model: null, name: command.name, allowed: null };
}
