/**
 * Step 2a, the PreToolUse hooks. An input a hook rewrote (`updatedInput`) is decided again,
 * whole: PreToolUse fires again on the new input, so a hook's `allow` given for the original
 * input never approves the rewrite, and the rules, mode, protected paths and sandbox that follow
 * (decide.ts) judge only the final input. Rewrites that do not settle are refused.
 */
import type { HookDecision } from "../../hooks/index.js";
import type { AnyTool } from "../../tools/index.js";
import { validateToolInput } from "../../tools/registry.js";
import type { AgentEvent } from "../events.js";
import { fireHook, infoAt, isVeto, vetoingHooks } from "../hook-adapter/fire.js";
import { preToolVetoText } from "../hook-adapter/text.js";
import type { PipelineContext } from "./types.js";

/** Rounds of PreToolUse one call may take: the first input plus two rewrites. */
export const MAX_PRE_TOOL_ROUNDS = 3;

/** The final input with the decision PreToolUse gave for exactly it, or why the call stops. */
export type PreToolOutcome =
  | { ok: true; input: Record<string, unknown>; pre: HookDecision }
  | {
      ok: false;
      status: "blocked" | "error";
      text: string;
      input: Record<string, unknown>;
      stopReason: string | null;
    };

/** Fires PreToolUse until no hook changes the input (at most MAX_PRE_TOOL_ROUNDS). */
export async function* preToolUse(
  ctx: PipelineContext,
  tool: AnyTool,
  callId: string,
  first: Record<string, unknown>,
  signal: AbortSignal,
  cwd: string,
): AsyncGenerator<AgentEvent, PreToolOutcome> {
  let input = first;
  for (let round = 1; ; round++) {
    const pre = yield* fireHook(
      ctx.hooks,
      infoAt(ctx.info, cwd),
      "PreToolUse",
      { tool_name: tool.name, tool_input: input, tool_use_id: callId },
      signal,
    );
    if (isVeto(pre)) {
      return {
        ok: false,
        status: "blocked",
        text: preToolVetoText(pre, tool.name),
        input,
        stopReason: null,
      };
    }
    if (!pre.continue) {
      const why = pre.stopReason ?? "a PreToolUse hook stopped the agent";
      return { ok: false, status: "blocked", text: `Not run: ${why}`, input, stopReason: why };
    }
    if (pre.updatedInput === null) return { ok: true, input, pre };
    const rewritten = validateToolInput(tool, pre.updatedInput);
    if (!rewritten.ok) {
      const text = `A PreToolUse hook (${vetoingHooks(pre)}) rewrote the arguments and the result is invalid, so the tool did not run: ${rewritten.error}`;
      return { ok: false, status: "error", text, input, stopReason: null };
    }
    // Hooks that hand back what they were given changed nothing: this round's decision holds.
    if (sameInput(rewritten.input, input)) return { ok: true, input, pre };
    if (round >= MAX_PRE_TOOL_ROUNDS) {
      const text = `PreToolUse hooks (${vetoingHooks(pre)}) kept rewriting the arguments (${MAX_PRE_TOOL_ROUNDS} rounds), so the tool did not run: each rewrite is judged again, and this one never settled.`;
      return { ok: false, status: "blocked", text, input, stopReason: null };
    }
    input = rewritten.input;
  }
}

/** Whether two inputs are the same JSON value (key order aside). */
function sameInput(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) =>
      x < y ? -1 : x > y ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
