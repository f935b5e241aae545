/** The HandlerRunRequest the engine would hand a handler, for handler unit tests. */
import type { AnyEventPayload } from "../../src/hooks/events.js";
import type { HandlerRunRequest } from "../../src/hooks/handlers/types.js";
import type { HandlerConfig, HookSource } from "../../src/hooks/types.js";

/** Which hook runs, from where, for which project. */
export interface RequestHook {
  id: string;
  handler: HandlerConfig;
  source: HookSource;
  projectDir: string;
}

/**
 * A run of one trusted, active hook fired with `payload` (stdin is the payload as one JSON line),
 * a 10 s timeout, a 1 MiB output cap and no private networks; `over` replaces any field.
 */
export function handlerRequest(
  hook: RequestHook,
  payload: AnyEventPayload,
  over: Partial<HandlerRunRequest> = {},
): HandlerRunRequest {
  return {
    hook: {
      id: hook.id,
      event: payload.hook_event_name,
      matcher: undefined,
      handler: hook.handler,
      source: hook.source,
      order: 0,
      trusted: true,
      active: true,
      problems: [],
    },
    payload,
    stdin: `${JSON.stringify(payload)}\n`,
    env: {},
    projectDir: hook.projectDir,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    maxOutputBytes: 1024 * 1024,
    allowPrivateNetworks: false,
    ...over,
  };
}
