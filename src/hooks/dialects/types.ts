/**
 * What makes one configuration format a dialect: the names and input fields its hooks see,
 * the payload on stdin, how its matchers read, its default timeouts and what its exit codes
 * mean. The engine stays dialect-agnostic by going through this interface.
 */
import type { AnyEventPayload, HookEventName, ToolInput } from "../events.js";
import type { DialectName, HandlerType } from "../types.js";

/** Context a dialect needs to translate inputs (absolute paths are resolved against it). */
export interface DialectContext {
  projectDir: string;
}

/** How a dialect's matchers are read. */
export type MatcherStyle = "anchored" | "claude" | "exact";

/** Which exit-code table decide.ts applies to a command hook of this dialect. */
export type ExitTable = "native" | "reasonix" | "tutorial";

/** One dialect. Every function is pure. */
export interface Dialect {
  readonly name: DialectName;
  /** The tool's name as this dialect's hooks see it. */
  toolName(keelTool: string): string;
  /** The Keel name for one of this dialect's tool names (undefined when it has no such tool). */
  keelToolName(name: string): string | undefined;
  /** Keel input → this dialect's input fields. */
  inputToDialect(keelTool: string, input: ToolInput, ctx: DialectContext): ToolInput;
  /**
   * This dialect's (possibly partial) input → Keel's fields. `original` is the Keel input the
   * hook was shown, so unchanged absolute paths map back to the path as the model wrote it.
   */
  inputFromDialect(
    keelTool: string,
    input: ToolInput,
    original: ToolInput,
    ctx: DialectContext,
  ): ToolInput;
  /** The event name hooks of this dialect see (`hook_event_name`, `HOOK_EVENT`). */
  eventName(event: HookEventName): string;
  /** The object written (as one JSON line) to the hook's stdin. */
  stdinObject(
    payload: AnyEventPayload,
    shaped: { toolName?: string; toolInput?: ToolInput; toolOutput?: string },
  ): Record<string, unknown>;
  readonly matcherStyle: MatcherStyle;
  /** Whether matchers on events that are not about tools are honoured (Reasonix ignores them). */
  readonly matchesNonToolEvents: boolean;
  /** Observing events whose exit-2 (or block) message this dialect's agent gives the model;
   *  on the others it shows it to the user only. Undefined: the model, on every event. */
  readonly feedbackToModelOn?: ReadonlySet<HookEventName>;
  /** Whether an `updatedInput` is the whole new input (Claude Code: a field left out is
   *  dropped) rather than fields to change (merged into the call's input). */
  readonly updatedInputIsWhole?: boolean;
  /** Events whose matchers this dialect's agent ignores although Keel's native files honour
   *  them (Claude Code fires UserPromptSubmit hooks on every prompt, whatever the matcher). */
  readonly ignoresMatcherOn?: ReadonlySet<HookEventName>;
  /** Default timeout in seconds for a handler of `type` on `event`. */
  defaultTimeoutSec(event: HookEventName, type: HandlerType): number;
  readonly exitTable: ExitTable;
  /** Whether JSON on stdout is read as structured output. */
  readonly parsesJson: boolean;
}
