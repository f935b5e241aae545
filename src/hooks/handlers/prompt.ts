/**
 * The prompt handler (docs/hooks.md "HTTP, prompt and agent hooks"): one JSON-mode call to the cheap model, which answers
 * `{"ok": boolean, "reason": string}`.
 *
 * `ok: false` is a decided "block" carrying the reason; decide.ts maps it per event (decision
 * "deny" on PreToolUse and PermissionRequest, "block" elsewhere: prompt refused on
 * UserPromptSubmit, "keep going with this reason" on Stop; feedback on observing events). `ok: true` passes. An answer that is not that object is a warning, never
 * a block: a confused model must not be able to stop the agent by accident.
 */
import { z } from "zod";
import { lazy } from "../../base/index.js";
import { substituteArguments } from "../template.js";
import {
  capText,
  type Deadline,
  decided,
  errorText,
  settle,
  startDeadline,
} from "./run-support.js";
import type { DecidedRunResult, Handler, HandlerRunRequest } from "./types.js";

/** The answer a prompt or agent hook gives. `reason` is optional when `ok` is true. */
export const hookVerdictSchema = lazy(() =>
  z.object({
    ok: z.boolean(),
    reason: z.string().nullish(),
  }),
);

/** A parsed `{ok, reason}` answer. */
export type HookVerdict = z.infer<ReturnType<typeof hookVerdictSchema>>;

/** Appended to every prompt hook's prompt. Says "JSON": DeepSeek's JSON mode requires the word. */
export const PROMPT_ANSWER_INSTRUCTION =
  'Reply with only a JSON object of the form {"ok": boolean, "reason": string}. ' +
  '"ok": true lets the action proceed; "ok": false stops it, and "reason" tells the agent why.';

/** The payload JSON a prompt or agent hook sees: the dialect-shaped stdin line. */
export function payloadJsonOf(req: HandlerRunRequest): string {
  const line = req.stdin.trim();
  return line === "" ? JSON.stringify(req.payload) : line;
}

/** The full text sent to the model for a prompt hook. */
export function buildHookPrompt(prompt: string, payloadJson: string): string {
  return `${substituteArguments(prompt, payloadJson)}\n\n${PROMPT_ANSWER_INSTRUCTION}`;
}

/** Parses a model's answer: plain JSON, or JSON inside one ``` fence. */
export function parseVerdict(
  answer: string,
): { ok: true; verdict: HookVerdict } | { ok: false; error: string } {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(answer.trim());
  const text = fenced?.[1] ?? answer.trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "the answer is not JSON" };
  }
  const parsed = hookVerdictSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join(".") : "answer";
    return { ok: false, error: `${field}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, verdict: parsed.data };
}

/** Maps a verdict to the run's result. */
export function verdictResult(
  verdict: HookVerdict,
  fields: { kind: "prompt" | "agent"; stdout: string; truncated: boolean; durationMs: number },
): DecidedRunResult {
  const reason = verdict.reason?.trim() || null;
  const record = {
    stdout: fields.stdout,
    truncated: fields.truncated,
    durationMs: fields.durationMs,
  };
  // The reason of an "ok" answer stays in stdout: a run's message is for blocks and warnings.
  if (verdict.ok) return decided("pass", record);
  return decided("block", {
    ...record,
    message: reason ?? `${fields.kind} hook answered ok: false without a reason`,
  });
}

/** The result of a run whose deadline fired or whose runner failed. */
export function unsettledResult(
  kind: "prompt" | "agent",
  outcome: "timeout" | "cancelled" | "failed",
  fields: { timeoutMs: number; error?: unknown; deadline: Deadline },
): DecidedRunResult {
  const durationMs = fields.deadline.elapsedMs();
  if (outcome === "timeout") {
    return decided("timeout", {
      message: `${kind} hook timed out after ${fields.timeoutMs} ms`,
      durationMs,
    });
  }
  if (outcome === "cancelled")
    return decided("cancelled", { message: `${kind} hook cancelled`, durationMs });
  return decided("warn", {
    message: `${kind} hook failed: ${errorText(fields.error)}`,
    durationMs,
  });
}

/** The prompt handler: asks `req.promptRunner`; without one it warns. */
export const promptHandler: Handler = async (req) => {
  const handler = req.hook.handler;
  const deadline = startDeadline({ timeoutMs: req.timeoutMs, signal: req.signal });
  try {
    if (handler.type !== "prompt") {
      return decided("error", {
        message: `prompt handler given a ${handler.type} hook`,
        durationMs: 0,
      });
    }
    if (!req.promptRunner) {
      return decided("warn", {
        message:
          "prompt hooks need a model: no prompt runner is configured (no API key or endpoint?)",
        durationMs: deadline.elapsedMs(),
      });
    }
    const prompt = buildHookPrompt(handler.prompt, payloadJsonOf(req));
    const runner = req.promptRunner;
    const early = deadline.cause();
    if (early) return unsettledResult("prompt", early, { timeoutMs: req.timeoutMs, deadline });
    const settled = await settle(
      deadline,
      // Called inside the promise chain so a runner that throws synchronously is a failure too.
      Promise.resolve().then(() =>
        runner({
          prompt,
          signal: deadline.signal,
          ...(handler.model ? { model: handler.model } : {}),
        }),
      ),
    );
    if (settled.kind !== "done") {
      const error = settled.kind === "failed" ? settled.error : undefined;
      return unsettledResult("prompt", settled.kind, { timeoutMs: req.timeoutMs, error, deadline });
    }
    // The contract says string; a runner that breaks it gets a warning, not a crash.
    const text = String(settled.value);
    const answer = capText(text, req.maxOutputBytes);
    const parsed = parseVerdict(text);
    if (!parsed.ok) {
      return decided("warn", {
        message: `prompt hook gave a malformed answer (${parsed.error}); expected {"ok": boolean, "reason": string}`,
        stdout: answer.text,
        truncated: answer.truncated,
        durationMs: deadline.elapsedMs(),
      });
    }
    return verdictResult(parsed.verdict, {
      kind: "prompt",
      stdout: answer.text,
      truncated: answer.truncated,
      durationMs: deadline.elapsedMs(),
    });
  } finally {
    deadline.dispose();
  }
};
