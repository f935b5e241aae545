/**
 * Antigravity's output rules (its docs and captured agy 1.0.x behaviour, docs/hooks.md
 * "Antigravity"): a hook answers with JSON on stdout, never with its exit code —
 * - PreToolUse: `{"decision": "allow" | "deny" | "ask" | "force_ask", "reason"?}`;
 * - PreInvocation (Keel's UserPromptSubmit): `{"injectSteps": [{"userMessage"} |
 *   {"ephemeralMessage"} | {"toolCall"}]}`: the messages reach the model as hook context;
 * - Stop: `{"decision": "continue", "reason"?}` sends the agent on (Keel's Stop block);
 *   any other decision lets it stop.
 * A non-zero exit, a crash or output that is not JSON is a failed hook: the action goes on
 * (exit 2 is not a deny in Antigravity; a guard written for Claude Code's exit 2 does not block
 * there, and so not here either — `"onError": "block"` is how to make a failing guard block).
 */
import { isRecord } from "../../../base/index.js";
import { EVENT_SPECS } from "../../events.js";
import type { HookOutput } from "../../output.js";
import { exitWarning, nonEmpty, verdict, verdictFromOutput } from "../../verdict.js";
import type { ExitTable } from "../types.js";

const DECISIONS: Readonly<Record<string, "allow" | "deny" | "ask">> = {
  allow: "allow",
  deny: "deny",
  ask: "ask",
  // "force_ask" asks even where a rule would allow; Keel's "ask" from a hook already does.
  force_ask: "ask",
};

/** The stdout object, or a warning why there is none. */
function stdoutObject(
  stdout: string,
): { value: Record<string, unknown> } | { warn: string } | null {
  const text = nonEmpty(stdout);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return { value };
  } catch {
    // fall through
  }
  return { warn: "hook output is not a JSON object; Antigravity ignores it, and so does Keel" };
}

/** The messages of `injectSteps`, joined, and what was left out. */
function injected(steps: unknown): { text: string | null; skipped: number } {
  if (!Array.isArray(steps)) return { text: null, skipped: 0 };
  const texts: string[] = [];
  let skipped = 0;
  for (const s of steps) {
    const m = isRecord(s) ? (s.userMessage ?? s.ephemeralMessage) : undefined;
    if (typeof m === "string" && m !== "") texts.push(m);
    else skipped += 1;
  }
  return { text: texts.length > 0 ? texts.join("\n") : null, skipped };
}

/** The table. */
export const antigravityExitTable: ExitTable = {
  name: "antigravity",
  gating: (event) => EVENT_SPECS[event].gating,
  decide(ctx, run) {
    if (run.code !== 0) {
      return verdict({ outcome: "warn", message: exitWarning(run.code, run.signal, run.stderr) });
    }
    const read = stdoutObject(run.stdout);
    if (read === null) return verdict({});
    if ("warn" in read) return verdict({ outcome: "warn", message: read.warn });
    const out = read.value;
    const reason = typeof out.reason === "string" ? out.reason : null;
    if (ctx.event === "PreToolUse") {
      if (out.decision === undefined) return verdict({});
      const decision = typeof out.decision === "string" ? DECISIONS[out.decision] : undefined;
      if (decision === undefined) {
        return verdict({
          outcome: "warn",
          message: `unknown decision ${JSON.stringify(out.decision)} (allow, deny, ask or force_ask)`,
        });
      }
      const answer: HookOutput = {
        hookSpecificOutput: { permissionDecision: decision, permissionDecisionReason: reason },
      };
      return verdictFromOutput(ctx, answer);
    }
    if (ctx.event === "Stop") {
      if (out.decision !== "continue") return verdict({});
      return verdictFromOutput(ctx, { decision: "block", reason });
    }
    if (ctx.event === "UserPromptSubmit") {
      const { text, skipped } = injected(out.injectSteps);
      const v = verdictFromOutput(ctx, { hookSpecificOutput: { additionalContext: text } });
      if (skipped === 0) return v;
      return {
        ...v,
        outcome: "warn",
        message: `${skipped} injected step(s) without userMessage/ephemeralMessage skipped (Keel does not inject tool calls)`,
      };
    }
    return verdict({});
  },
};
