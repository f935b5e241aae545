/**
 * Step 2c, when Keel's policy does not settle a call: PermissionRequest hooks, then --yes, then
 * the person at the prompt (Notification first). Headless with nobody to ask: refused.
 */

import type { EventPayloadFields } from "../../hooks/index.js";
import type { AgentEvent } from "../events.js";
import { fireHook, infoAt, isVeto, vetoingHooks, vetoReason } from "../hook-adapter/fire.js";
import type { AllowScope } from "../permissions/index.js";
import type { DecideRequest, Permit, PipelineContext } from "./types.js";

/** PermissionRequest's `permission_suggestions` (src/hooks/event-table.ts). */
type PermissionSuggestions = EventPayloadFields["PermissionRequest"]["permission_suggestions"];

/** What asking needs beyond the request. */
export interface AskRequest extends DecideRequest {
  primary: string | undefined;
  reason: string;
  scope: AllowScope;
  /** Only a person may approve (untrusted hooks would have judged the call, or a deny rule
   *  cannot tell whether it holds). */
  personOnly: boolean;
  /** What a headless refusal of a person-only call tells (default: how to trust the hooks). */
  personHow?: string;
  /** A protected path: a PermissionRequest allow does not approve it. */
  guarded: boolean;
  /** An "allow always" answer may be remembered for the session. */
  remember: boolean;
  /** A PreToolUse hook asked (its headless wording is then the model's answer). */
  hookAsked: boolean;
}

/** PermissionRequest → --yes → the user. */
export async function* askSomeone(
  ctx: PipelineContext,
  req: AskRequest,
): AsyncGenerator<AgentEvent, Permit> {
  // Claude Code 2.1.332 in bypassPermissions mode headless (`claude -p
  // --dangerously-skip-permissions`): a hook's ask refuses the call with the hook's reason, and
  // no PermissionRequest fires — no dialog could open (measured by compat:claude).
  if (
    headlessHookAsk(ctx, req) &&
    req.hookAskText !== null &&
    ctx.info.permissionMode() === "bypassPermissions"
  ) {
    return { ok: false, reason: req.hookAskText };
  }
  const settled = yield* permissionRequestHooks(ctx, req);
  if (settled !== null) return settled;
  const summary = `${req.tool.name}${req.primary !== undefined ? ` ${req.primary}` : ""}`;
  if (!canAskPerson(ctx)) return headlessRefusal(req, summary);
  return yield* askPerson(ctx, req, summary);
}

/** PermissionRequest hooks, then --yes: the permit when they settle the call, else null. */
async function* permissionRequestHooks(
  ctx: PipelineContext,
  req: AskRequest,
): AsyncGenerator<AgentEvent, Permit | null> {
  const request = yield* fireHook(
    ctx.hooks,
    infoAt(ctx.info, req.cwd),
    "PermissionRequest",
    {
      tool_name: req.tool.name,
      tool_input: req.input,
      tool_use_id: req.callId,
      permission_suggestions: permissionSuggestions(req),
    },
    req.signal,
  );
  if (isVeto(request)) {
    return {
      ok: false,
      reason: `Permission denied by ${vetoingHooks(request)}: ${vetoReason(request)}. The tool did not run.`,
    };
  }
  if (!req.personOnly) {
    if (request.decision === "allow" && !req.guarded) return { ok: true };
    if (ctx.autoApprove) return { ok: true };
  }
  return null;
}

/** Nobody to ask: refused, saying how the user could let it run. */
function headlessRefusal(req: AskRequest, summary: string): Permit {
  if (req.hookAsked && req.hookAskText !== null) return { ok: false, reason: req.hookAskText };
  const how = req.personOnly
    ? (req.personHow ??
      "(The user can trust the project's hooks with `keel hooks trust`, or run without them with --without-project-hooks.)")
    : "(The user can re-run with --yes, switch the permission mode, or allow it with a PermissionRequest hook.)";
  return {
    ok: false,
    reason: `Permission denied: ${summary} needs the user's approval (${req.reason}), and this session is headless. The tool did not run. ${how}`,
    unasked: true,
  };
}

/** A pipeline context with a person at the prompt. */
type AskingContext = PipelineContext & {
  askPermission: NonNullable<PipelineContext["askPermission"]>;
};

function canAskPerson(ctx: PipelineContext): ctx is AskingContext {
  return ctx.askPermission !== undefined;
}

/** Notification, then the question at the prompt; an "allow always" is remembered if it may be. */
async function* askPerson(
  ctx: AskingContext,
  req: AskRequest,
  summary: string,
): AsyncGenerator<AgentEvent, Permit> {
  const { tool, input, signal } = req;
  yield* fireHook(
    ctx.hooks,
    infoAt(ctx.info, req.cwd),
    "Notification",
    {
      message: `Keel needs your permission to use ${tool.name}`,
      notification_type: "permission_prompt",
    },
    signal,
  );
  let answer: string;
  try {
    answer = await ctx.askPermission(
      {
        toolName: tool.name,
        input,
        summary,
        reason: req.reason,
        always: req.remember ? req.scope.label : null,
      },
      { signal },
    );
  } catch {
    // No answer (the prompt failed): refused, but no one said no, so the turn goes on.
    return { ok: false, reason: `${summary} could not be put to the user. The tool did not run.` };
  }
  if (answer === "allow_always" && req.remember) ctx.allowed.add(req.scope.key);
  if (answer === "allow_once" || answer === "allow_always") return { ok: true };
  return {
    ok: false,
    reason: `The user denied ${summary}. The tool did not run. Stop and wait for the user to say how to go on.`,
    byUser: true,
  };
}

/**
 * What the prompt's "allow always" would remember for this call (the same `scope` that answer
 * adds to `ctx.allowed` below), as Claude Code's permission update: nothing when the answer is
 * not remembered (protected paths, ask rules).
 */
function permissionSuggestions(req: AskRequest): PermissionSuggestions {
  if (!req.remember) return [];
  return [{ type: "addRules", rules: [req.scope.rule], behavior: "allow", destination: "session" }];
}

/** A PreToolUse hook asked, and nobody can answer: no prompt, and no --yes. */
function headlessHookAsk(ctx: PipelineContext, req: AskRequest): boolean {
  return req.hookAsked && ctx.askPermission === undefined && !ctx.autoApprove;
}
