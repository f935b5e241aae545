/**
 * Failing closed on untrusted project hooks. Hooks of a project that are present but not trusted
 * (never, or changed since they were) do not run — so what they would have judged must not be
 * approved by anything but a person: not `--yes`, not a mode, not a rule, not a remembered
 * answer. A call is gated when an untrusted project PreToolUse or PermissionRequest hook would
 * have fired for it (its matcher and `if` tested as if it were trusted).
 */
import { resolve } from "node:path";
import type { HookDefinition, HookListing } from "../../hooks/index.js";
import {
  type EventPayload,
  explainFiring,
  type HookToolCatalog,
  readTrustStore,
} from "../../hooks/index.js";

/** The events whose hooks decide whether a tool runs. */
const GATING_TOOL_EVENTS = ["PreToolUse", "PermissionRequest"] as const;

/** The untrusted project hooks of `listing` (empty when the project's hooks are trusted). */
export function untrustedProjectHooks(listing: HookListing): HookDefinition[] {
  if (!listing.projectTrust.hasProjectHooks || listing.projectTrust.trusted) return [];
  return listing.hooks.filter((h) => !h.trusted && h.source.scope !== "user");
}

/** The untrusted project hooks that would fire for `payload` if they were trusted. */
export function untrustedMatching(
  listing: HookListing,
  payload: EventPayload,
  projectDir: string,
  tools?: HookToolCatalog,
): HookDefinition[] {
  const untrusted = untrustedProjectHooks(listing).filter(
    (h) => h.event === payload.hook_event_name,
  );
  if (untrusted.length === 0) return [];
  const asTrusted = untrusted.map((h) => ({ ...h, trusted: true }));
  return explainFiring(asTrusted, payload, projectDir, tools)
    .filter((e) => e.runs || e.skip === "duplicate")
    .map((e) => e.hook);
}

/** The untrusted project hooks that would have judged a call of `toolName` with `input`. */
export function gatingUntrustedHooks(
  listing: HookListing,
  call: { toolName: string; input: Record<string, unknown>; projectDir: string; cwd?: string },
): HookDefinition[] {
  const out: HookDefinition[] = [];
  for (const event of GATING_TOOL_EVENTS) {
    // Only the fields matching reads (hooks/plan.ts viewOf): event, tool name, tool input.
    const payload = {
      hook_event_name: event,
      tool_name: call.toolName,
      tool_input: call.input,
      ...(call.cwd !== undefined ? { cwd: call.cwd } : {}),
    } as unknown as EventPayload;
    out.push(...untrustedMatching(listing, payload, call.projectDir));
  }
  return out;
}

/** Why a project's hooks are untrusted: never trusted here, or changed since they were. */
export type UntrustedWhy = "never trusted" | "changed since trusted";

/** Reads the trust store (hooks/trust.ts) for whether the project was ever trusted. */
export async function untrustedWhy(keelHome: string, projectDir: string): Promise<UntrustedWhy> {
  try {
    const store = await readTrustStore(resolve(keelHome));
    return store.projects[resolve(projectDir)] !== undefined
      ? "changed since trusted"
      : "never trusted";
  } catch {
    return "never trusted";
  }
}
