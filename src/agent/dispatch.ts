/**
 * Running one tool call the model asked for: validate the arguments, PreToolUse, permissions
 * (mode, PermissionRequest, the user), the tool itself, PostToolUse / PostToolUseFailure. Every
 * path ends in exactly one tool result, so the log always stays a valid conversation.
 */
import type { HookEngine } from "../hooks/types.js";
import { type AnyTool, findTool, validateToolInput } from "../tools/registry.js";
import { sandboxStatus } from "../tools/sandbox.js";
import type { ToolResult } from "../tools/types.js";
import type { AgentEvent, ToolCallStatus } from "./events.js";
import {
  fireHook,
  type HookSessionInfo,
  hookContextBlock,
  isVeto,
  messageOf,
  vetoingHooks,
  vetoReason,
} from "./hook-fire.js";
import { firePermissionDenied } from "./hook-moments.js";
import { contextForModel, headlessAskText, preToolVetoText } from "./hook-text.js";
import { mcpVerdict } from "./mcp-permissions.js";
import {
  decideByRules,
  deniedByRuleText,
  type PermissionRule,
  ruleSource,
} from "./permission-rules.js";
import { allowScope, modeVerdict } from "./permissions.js";
import { withProgress } from "./progress.js";
import { protectedWriteReason } from "./protected-paths.js";
import type { AskPermission } from "./types.js";

/** What dispatch needs from the agent. */
export interface DispatchContext {
  tools: readonly AnyTool[];
  hooks: HookEngine;
  info: HookSessionInfo;
  askPermission: AskPermission | undefined;
  autoApprove: boolean;
  /** "Allow always" answers of this session. */
  allowed: Set<string>;
  clock: () => number;
  /** Environment added to processes tools start (set after SessionStart from CLAUDE_ENV_FILE). */
  toolEnv?: Readonly<Record<string, string>>;
  /** Calls pre-approved for the current turn only (a user command's allowed-tools). */
  turnAllowed?: ((toolName: string, primary: string | undefined) => boolean) | undefined;
  /** Tools that run as event streams (the `task` sub-agent), by name. */
  streaming?: ReadonlyMap<string, StreamingRun>;
  /** Permission rules from settings (permission-rules.ts): deny > ask > allow > the mode. */
  rules?: { rules: readonly PermissionRule[]; homeDir: string };
}

/** A tool run that reports progress as agent events before its result. Must not throw. */
export type StreamingRun = (
  input: Record<string, unknown>,
  call: { id: string; signal: AbortSignal },
) => AsyncGenerator<AgentEvent, ToolResult>;

/** How a call ended: the text the model sees, and whether a hook ended the turn. */
export interface DispatchOutcome {
  status: ToolCallStatus;
  content: string;
  input: Record<string, unknown>;
  /** Set when a hook said `continue: false`: the turn ends after this call. */
  stopReason: string | null;
}

/** A call after repair: what to run, or the error the model gets instead. */
export interface PreparedCall {
  id: string;
  name: string;
  /** Parsed (and re-nested) arguments. */
  input: Record<string, unknown>;
  /** Set when the call must not run (repair could not fix it, storm breaker). */
  error?: string;
}

/** Runs one call and yields its events; never throws. */
export async function* dispatchToolCall(
  ctx: DispatchContext,
  call: PreparedCall,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, DispatchOutcome> {
  const name = call.name;
  const started = ctx.clock();
  yield { type: "tool_call", id: call.id, name, input: call.input };

  const finish = (
    status: ToolCallStatus,
    content: string,
    input: Record<string, unknown>,
    stopReason: string | null = null,
  ): { event: AgentEvent; outcome: DispatchOutcome } => ({
    event: {
      type: "tool_result",
      id: call.id,
      name,
      input,
      status,
      content,
      durationMs: ctx.clock() - started,
    },
    outcome: { status, content, input, stopReason },
  });

  if (call.error !== undefined) {
    const r = finish("error", call.error, call.input);
    yield r.event;
    return r.outcome;
  }
  const tool = findTool(ctx.tools, name);
  if (tool === undefined) {
    const names = ctx.tools.map((t) => t.name).join(", ");
    const r = finish("error", `Unknown tool \`${name}\`. Available tools: ${names}.`, call.input);
    yield r.event;
    return r.outcome;
  }
  const valid = validateToolInput(tool, call.input);
  if (!valid.ok) {
    const r = finish("error", valid.error, call.input);
    yield r.event;
    return r.outcome;
  }
  let input: Record<string, unknown> = valid.input;

  const pre = yield* fireHook(
    ctx.hooks,
    ctx.info,
    "PreToolUse",
    { tool_name: name, tool_input: input, tool_use_id: call.id },
    signal,
  );
  if (isVeto(pre)) {
    const r = finish("blocked", preToolVetoText(pre, name), input);
    yield r.event;
    return r.outcome;
  }
  if (!pre.continue) {
    const why = pre.stopReason ?? "a PreToolUse hook stopped the agent";
    const r = finish("blocked", `Not run: ${why}`, input, why);
    yield r.event;
    return r.outcome;
  }
  if (pre.updatedInput !== null) {
    const rewritten = validateToolInput(tool, pre.updatedInput);
    if (!rewritten.ok) {
      const text = `A PreToolUse hook (${vetoingHooks(pre)}) rewrote the arguments and the result is invalid, so the tool did not run: ${rewritten.error}`;
      const r = finish("error", text, input);
      yield r.event;
      return r.outcome;
    }
    input = rewritten.input;
  }

  const permitted = yield* checkPermission(ctx, {
    tool,
    input,
    callId: call.id,
    hookSays: pre.decision,
    hookAskText: headlessAskText(pre),
    signal,
  });
  if (!permitted.ok) {
    const text = permitted.unasked
      ? yield* firePermissionDenied(
          ctx.hooks,
          ctx.info,
          { tool_name: name, tool_input: input, tool_use_id: call.id },
          permitted.reason,
          signal,
        )
      : permitted.reason;
    const stop = permitted.byUser ? `You denied ${tool.name}; say how to go on.` : null;
    const r = finish("blocked", text, input, stop);
    yield r.event;
    return r.outcome;
  }

  let result: ToolResult;
  const readBarred = readBarredBy(ctx, tool.kind);
  const runStarted = ctx.clock();
  if (signal.aborted) {
    result = { content: "Interrupted by the user before the tool ran.", isError: true };
  } else {
    try {
      const streaming = ctx.streaming?.get(tool.name);
      result = streaming
        ? yield* streaming(input, { id: call.id, signal })
        : yield* withProgress<ToolResult, AgentEvent>((emit) =>
            tool.run(input, {
              signal,
              sandboxed: permitted.sandboxed === true,
              ...(readBarred ? { readBarred } : {}),
              ...(ctx.toolEnv ? { env: ctx.toolEnv } : {}),
              onOutput: (text) => emit({ type: "tool_output", id: call.id, text }),
            }),
          );
    } catch (err) {
      result = { content: `${name} failed: ${messageOf(err)}`, isError: true };
    }
    // Tools that noticed the interrupt say so themselves (shell: "[interrupted by the user…]").
    if (signal.aborted && result.isError && !/interrupted/i.test(result.content)) {
      result = { ...result, content: `${result.content}\n(Interrupted by the user.)` };
    }
  }
  const durationMs = ctx.clock() - runStarted;

  let content = result.content;
  let stopReason: string | null = result.stopTurn ?? null;
  // PreToolUse context reaches the model with the result, as in Claude Code (text after it).
  const preContext = contextForModel(pre, { tool: name });
  if (preContext?.trim()) content = `${content}\n\n${hookContextBlock("PreToolUse", preContext)}`;
  if (!result.isError) {
    const post = yield* fireHook(
      ctx.hooks,
      ctx.info,
      "PostToolUse",
      {
        tool_name: name,
        tool_input: input,
        tool_use_id: call.id,
        tool_response: { content: result.content, ...(result.details ?? {}) },
        duration_ms: durationMs,
      },
      signal,
    );
    if (post.updatedToolOutput !== null) content = post.updatedToolOutput;
    content = withContext(
      content,
      "PostToolUse",
      contextForModel(post, { tool: name }),
      post.reason,
    );
    if (!post.continue) stopReason = post.stopReason ?? "a PostToolUse hook stopped the agent";
  } else {
    // A command that ran and exited non-zero: some agents' hooks see that as PostToolUse.
    const exitCode = result.details?.exitCode;
    const ran = typeof exitCode === "number" && exitCode !== 0 && !signal.aborted;
    const failure = yield* fireHook(
      ctx.hooks,
      ctx.info,
      "PostToolUseFailure",
      {
        tool_name: name,
        tool_input: input,
        tool_use_id: call.id,
        error: result.content,
        is_interrupt: signal.aborted,
        duration_ms: durationMs,
      },
      signal,
      ran
        ? {
            tool_name: name,
            tool_input: input,
            tool_use_id: call.id,
            tool_response: { content: result.content, ...(result.details ?? {}) },
            duration_ms: durationMs,
          }
        : undefined,
    );
    content = withContext(
      content,
      "PostToolUseFailure",
      contextForModel(failure, { tool: name }),
      null,
    );
    if (!failure.continue) {
      stopReason = failure.stopReason ?? "a PostToolUseFailure hook stopped the agent";
    }
  }
  const r = finish(result.isError ? "error" : "ok", content, input, stopReason);
  yield r.event;
  return r.outcome;
}

/** Appends hook context (and a block reason not already in it) after the tool output. */
function withContext(
  content: string,
  event: "PostToolUse" | "PostToolUseFailure",
  context: string | null,
  reason: string | null,
): string {
  const parts: string[] = [];
  if (context?.trim()) parts.push(context.trim());
  if (reason?.trim() && !parts.some((p) => p.includes(reason.trim()))) parts.push(reason.trim());
  if (parts.length === 0) return content;
  return `${content}\n\n${hookContextBlock(event, parts.join("\n"))}`;
}

/**
 * For a read tool or the shell, the test of files that a deny or ask rule keeps from read_file
 * (grep over a directory skips them; a sandboxed command finds them empty), or undefined when no
 * rule could.
 */
function readBarredBy(ctx: DispatchContext, kind: string): ((abs: string) => boolean) | undefined {
  const rules = ctx.rules;
  if ((kind !== "read" && kind !== "shell") || rules === undefined) return undefined;
  // Only Read rules bar reading: a Bash deny rule must not make every sandboxed command
  // search the project.
  const barring = rules.rules.filter(
    (r) => r.kind !== "allow" && (kind === "read" || /^Read(\(|$)/.test(r.text)),
  );
  if (barring.length === 0) return undefined;
  const projectDir = ctx.info.projectDir;
  return (abs) =>
    barring.some((r) =>
      r.test({ toolName: "read_file", input: { path: abs }, projectDir, homeDir: rules.homeDir }),
    );
}

/** Sessions (by their allow set) already told why the sandbox is off: they are told once. */
const sandboxNoticeGiven = new WeakSet<Set<string>>();

/** The permission pipeline: mode → (ask) session memory → PermissionRequest → the user. */
async function* checkPermission(
  ctx: DispatchContext,
  opts: {
    tool: AnyTool;
    input: Record<string, unknown>;
    callId: string;
    hookSays: string;
    /** What the model gets when a hook asked and nobody can answer (Claude's wording), or null. */
    hookAskText: string | null;
    signal: AbortSignal;
  },
): AsyncGenerator<
  AgentEvent,
  | { ok: true; sandboxed?: boolean }
  | {
      ok: false;
      reason: string;
      /** Refused without asking anyone. */
      unasked?: true;
      /** A person said no at the prompt: the turn stops and waits for them (Claude Code's "No,
       *  and tell Claude what to do differently"), instead of the model trying something else. */
      byUser?: true;
    }
> {
  const { tool, input, signal } = opts;
  const primary = safePrimary(tool, input);
  const mode = ctx.info.permissionMode();
  // Settings rules: a deny refuses in every mode (bypass and --yes included), an ask always
  // asks, an allow stands for a person's yes (never for a protected path, never in plan mode).
  const ruled = ctx.rules
    ? decideByRules(ctx.rules, {
        toolName: tool.name,
        input,
        projectDir: ctx.info.projectDir,
        homeDir: ctx.rules.homeDir,
      })
    : null;
  if (ruled?.kind === "deny") {
    return { ok: false, reason: deniedByRuleText(ruled.rule, ctx.rules?.homeDir), unasked: true };
  }
  const sandbox =
    tool.kind === "shell" && mode !== "bypassPermissions" ? sandboxStatus() : undefined;
  const modeSays =
    mcpVerdict(mode, tool) ??
    modeVerdict({
      mode,
      toolName: tool.name,
      kind: tool.kind,
      primary,
      ...(sandbox ? { sandbox } : {}),
      readRestricted: readBarredBy(ctx, "shell") !== undefined,
    });
  const verdict =
    ruled?.kind === "allow" && modeSays.kind === "ask" ? { kind: "allow" as const } : modeSays;
  if (sandbox && !sandbox.available && !sandboxNoticeGiven.has(ctx.allowed)) {
    sandboxNoticeGiven.add(ctx.allowed);
    yield {
      type: "notice",
      level: "warn",
      text: `Every shell command needs approval in this session: ${sandbox.reason}. Keel runs commands on its own only inside that sandbox.`,
    };
  }
  if (verdict.kind === "refuse") return { ok: false, reason: verdict.reason, unasked: true };
  // Protected paths need a person: no mode but bypass, no remembered answer, no hook allows them.
  const guarded = await protectedWriteReason(ctx.info, tool, input, ctx.hooks);
  const ruleAsks =
    ruled?.kind === "ask"
      ? `${ruleSource(ruled.rule, ctx.rules?.homeDir)} asks for approval`
      : null;
  const hookAsks = opts.hookSays === "ask" || guarded !== null || ruleAsks !== null;
  if (!hookAsks && verdict.kind === "allow")
    return { ok: true, sandboxed: verdict.sandboxed === true };
  if (!hookAsks && opts.hookSays === "allow") return { ok: true };
  const scope = allowScope(tool.name, tool.kind, primary);
  const key = scope.key;
  if (!hookAsks && ctx.allowed.has(key)) return { ok: true };
  if (!hookAsks && ctx.turnAllowed?.(tool.name, primary) === true) return { ok: true };

  const reason =
    guarded ??
    ruleAsks ??
    (verdict.kind === "ask" && !hookAsks ? verdict.reason : "a PreToolUse hook asked for approval");
  const request = yield* fireHook(
    ctx.hooks,
    ctx.info,
    "PermissionRequest",
    { tool_name: tool.name, tool_input: input, tool_use_id: opts.callId },
    signal,
  );
  if (isVeto(request)) {
    return {
      ok: false,
      reason: `Permission denied by ${vetoingHooks(request)}: ${vetoReason(request)}. The tool did not run.`,
    };
  }
  if (request.decision === "allow" && guarded === null) return { ok: true };
  if (ctx.autoApprove) return { ok: true };
  const summary = `${tool.name}${primary !== undefined ? ` ${primary}` : ""}`;
  if (ctx.askPermission === undefined) {
    if (hookAsks && ruleAsks === null && opts.hookAskText !== null)
      return { ok: false, reason: opts.hookAskText };
    return {
      ok: false,
      reason: `Permission denied: ${summary} needs the user's approval (${reason}), and this session is headless. The tool did not run. (The user can re-run with --yes, switch the permission mode, or allow it with a PermissionRequest hook.)`,
      unasked: true,
    };
  }
  yield* fireHook(
    ctx.hooks,
    ctx.info,
    "Notification",
    {
      message: `Keel needs your permission to use ${tool.name}`,
      notification_type: "permission_prompt",
    },
    signal,
  );
  let answer: string;
  try {
    const always = guarded === null && ruleAsks === null ? scope.label : null;
    answer = await ctx.askPermission(
      { toolName: tool.name, input, summary, reason, always },
      { signal },
    );
  } catch {
    // No answer (the prompt failed): refused, but no one said no, so the turn goes on.
    return { ok: false, reason: `${summary} could not be put to the user. The tool did not run.` };
  }
  if (answer === "allow_always" && guarded === null && ruleAsks === null) ctx.allowed.add(key);
  if (answer === "allow_once" || answer === "allow_always") return { ok: true };
  return {
    ok: false,
    reason: `The user denied ${summary}. The tool did not run. Stop and wait for the user to say how to go on.`,
    byUser: true,
  };
}

function safePrimary(tool: AnyTool, input: Record<string, unknown>): string | undefined {
  try {
    return tool.primaryArg(input);
  } catch {
    return undefined;
  }
}
