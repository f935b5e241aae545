/**
 * What makes one configuration format a dialect: where its files live, how they read, the
 * event names, payload and environment its hooks see, its tool names and fields, how its
 * matchers read, its exit-code table, output rules and default timeouts. The engine stays
 * dialect-agnostic by going through this interface; every dialect is one folder under
 * `dialects/` registered in `dialects/index.ts`.
 */

import type { RawHook, ReadContext } from "../config/handler.js";
import type { HookPaths } from "../config/paths.js";
import type { AnyEventPayload, EventPayload, HookEventName, ToolInput } from "../events.js";
import type {
  DialectSessionFacts,
  HandlerConfig,
  HandlerType,
  HookProblem,
  HookSettings,
  SourceScope,
} from "../types.js";
import type { ExitFacts, ExitTable } from "../verdict.js";

// Defined next to what they are made of (hooks/types.ts, verdict.ts) so that those files need
// nothing from here (test/agent/no-circles.test.ts); dialects keep importing them from here.
export type { DialectSessionFacts, ExitFacts, ExitTable };

/** Context a dialect needs to translate inputs (absolute paths are resolved against it). */
export interface DialectContext {
  projectDir: string;
  /** Facts about the session the agent hands the engine (Claude's env file, transcript). */
  session?: DialectSessionFacts;
  /** The user prompt's number in the session, from the dialect's session state (1 for the
   *  first; Qwen Code numbers its prompt ids). */
  turn?: number;
}

/** How a dialect's matchers are read ("search": a regex found anywhere in the name, Gemini CLI;
 *  "qwen": the same after Qwen Code 0.24's exact checks on the name and its aliases, match.ts). */
export type MatcherStyle = "anchored" | "claude" | "exact" | "search" | "qwen";

/** A file a dialect's agent reads hooks from. */
export interface DialectFile {
  path: string;
  scope: SourceScope;
  /** A missing file is an error (it was named explicitly, like cagent's files). */
  mustExist?: boolean;
  /** Variables set for this file's hooks and expanded (`${NAME}`) in their commands. */
  env?: Readonly<Record<string, string>>;
}

/** What reading one file gave: hooks, problems and (for settings files) the parsed value. */
export interface DialectReadResult {
  hooks: RawHook[];
  problems: HookProblem[];
  /** The validated top-level value, for settings merging and `disableAllHooks`. */
  settings?: unknown;
  /** The dialect the file turned out to be written in, when one location serves two (a
   *  `.reasonix/settings.json` of Reasonix 0.x or 1.x). */
  dialect?: string;
}

/** How one Keel tool looks in a dialect. */
export interface ToolSpec {
  name: string;
  /** Keel field → dialect field, for fields whose names differ. */
  fields?: Readonly<Record<string, string>>;
}

/** Keel tool name → its spec in a dialect. */
export type ToolTable = Readonly<Record<string, ToolSpec>>;

/** The shaped tool call a dialect's stdin object is built from. */
export interface ShapedTool {
  toolName?: string;
  toolInput?: ToolInput;
  /** Text form of the tool output. */
  toolOutput?: string;
  /** The tool_response as this dialect's agent shapes it (see HookToolDescriptor.response). */
  toolResponse?: unknown;
  /** The user prompt's number in the session, once one was submitted (Reasonix's `turn`). */
  turn?: number;
  /** The last prompt the user submitted (Gemini CLI's AfterAgent carries it as `prompt`). */
  prompt?: string;
  /** On Stop: every answer that ended at a Stop since that prompt, this one last (a Stop hook
   *  that made the agent continue leads to several; Gemini's `prompt_response` joins them). */
  answers?: readonly string[];
  /** This tool call's step in the session, the prompt and every call each being one
   *  (Antigravity's `stepIdx`); on other events, the steps taken so far. */
  step?: number;
}

/** The fields of `ShapedTool` a dialect's session state supplies (see `sessionState`). */
export type SessionShaped = Pick<ShapedTool, "turn" | "prompt" | "answers" | "step">;

/**
 * What a dialect keeps across the firings of one session, for fields its agent carries from one
 * event to a later one (Reasonix 1.x numbers prompts; Gemini CLI repeats the prompt on
 * AfterAgent). The engine makes one per session and hands it every firing.
 */
export interface DialectSessionState {
  /** Sees every firing of the session, in order, before any of its hooks is shaped. */
  observe(payload: AnyEventPayload): void;
  /** What the session so far adds to the shaped call `stdinObject` gets for `payload`. */
  shaped(payload: AnyEventPayload): SessionShaped;
}

/** What a dialect's transcript writer is made from: the agent's facts about the session. */
export interface TranscriptFacts {
  /** Keel's home: transcripts live under it (a session kept only in memory has none). */
  keelHome: string;
  projectDir: string;
  sessionId: string;
  model: string;
  /** No one can answer a prompt (`keel run`). */
  headless: boolean;
  /** Keel's version, which some formats write into each entry. */
  version: string;
}

/** A transcript of the session in a dialect's own format, kept up to date message by message;
 *  its hooks' payload `transcript_path` names it (DialectSessionFacts.transcriptPaths). */
export interface DialectTranscript {
  readonly path: string;
  /** Appends the entry of one message as Keel stores it (its JSON bytes). Never throws. */
  append(bytes: string, promptId: string | undefined): void;
}

/** One dialect. Every function is pure except `files`, which only computes paths, and
 *  `sessionState`'s object, which is the one place a dialect keeps state. */
export interface Dialect<N extends string = string> {
  readonly name: N;
  /** How the format is named in messages ("Claude Code"). */
  readonly label: string;
  /** The files its agent reads hooks from, in configuration order. Settings give cagent's. */
  files(paths: HookPaths, settings: HookSettings): DialectFile[] | Promise<DialectFile[]>;
  /** Whether Keel settings `compat.<name>: false` switches the format off (the keel dialect
   *  itself cannot be switched off). */
  readonly compatSwitch: boolean;
  /** Whether `"disableAllHooks": true` in one of its files is honoured (Claude Code, Keel,
   *  Qwen Code). */
  readonly honoursDisableAll?: boolean;
  /** Other settings in one of its files that switch its hooks off (Gemini CLI's
   *  `hooksConfig`). Which scopes they reach is settings.ts's rule, the same as disableAllHooks. */
  disables?(settings: unknown): readonly DialectDisable[];
  /** Reads one file of this dialect. Never throws: everything wrong is a located problem. */
  read(text: string, ctx: ReadContext): DialectReadResult;
  /** Keel tool → this dialect's tool name and field names (tools it lacks keep Keel's). */
  readonly tools: ToolTable;
  /**
   * Keel tool → the `tool_response` this dialect's agent gives its hooks, built from Keel's
   * response (`{content, isError, details}`) and the call's Keel input. Applied to the tools
   * the engine has descriptors for (Keel's built-ins); others' responses pass unchanged.
   */
  readonly toolResponses?: Readonly<
    Record<string, (response: unknown, input: Readonly<Record<string, unknown>>) => unknown>
  >;
  /** Whether its tools take absolute paths (Keel's relative `path` is resolved). */
  readonly absolutePaths: boolean;
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
  /** The Keel event a name written in one of its files means (undefined: unknown). */
  eventFromName(name: string): HookEventName | undefined;
  /** The object written (as one JSON line) to the hook's stdin. */
  stdinObject(payload: AnyEventPayload, shaped: ShapedTool): Record<string, unknown>;
  /** A fresh state for one session, when its agent carries fields across events (undefined:
   *  each firing stands alone). */
  sessionState?(): DialectSessionState;
  /** A writer for the session's transcript in this dialect's agent's format, for hooks that
   *  read the transcript (undefined: its hooks get Keel's own transcript path). */
  transcript?(facts: TranscriptFacts): DialectTranscript;
  /** Environment variables this dialect's agent sets for its hooks, beyond the common ones. */
  env?(payload: AnyEventPayload, ctx: DialectContext): Record<string, string>;
  /** The shell its agent runs `command` with, from the hooks' environment (undefined: /bin/sh). */
  defaultShell?(env: Readonly<Record<string, string>>): string | undefined;
  readonly matcherStyle: MatcherStyle;
  /** Other names a tool matcher may write whole for the dialect's tool `own` (Qwen Code 0.24:
   *  `Bash`, `Shell`, `ShellTool` for `run_shell_command`); never searched as regex text. */
  toolAliases?(own: string): readonly string[];
  /** How matchers on events that are not about tools (SessionStart's source, SessionEnd's
   *  reason, …) read, when not as `matcherStyle` (Gemini CLI: exact strings). */
  readonly triggerMatcherStyle?: MatcherStyle;
  /** The value a matcher on a non-tool event is tested against, when this dialect's agent
   *  names it differently from Keel (Gemini CLI's headless SessionEnd reason is "exit"). */
  triggerValue?(event: HookEventName, value: string): string;
  /**
   * The command line as this dialect's agent hands it to the shell: Gemini CLI and Qwen Code
   * write the project directory into the text for `$GEMINI_PROJECT_DIR` and the like. `env` is
   * the hook's environment (the variables' values). Payload text never goes in.
   */
  expandCommand?(command: string, env: Readonly<Record<string, string>>): string;
  /**
   * Set when the dialect's agent runs the hooks of one firing one after another, in
   * configuration order, and stops at the first that blocks or denies (Reasonix, measured on
   * 1.38; the tutorial format, see `inOrderRunsAll`). Dialects naming the same chain (Reasonix
   * 0.x and 1.x files) run as one list. Unset: the hook runs alongside the others (Claude Code,
   * cagent, Gemini CLI).
   */
  readonly inOrderChain?: string;
  /** In its in-order list, a block does not stop the hooks after it: every matching hook runs
   *  and the firing blocks if any blocked (the tutorial's runner). */
  readonly inOrderRunsAll?: boolean;
  /** In its in-order list, each hook sees the input as the hooks before it rewrote it (the
   *  tutorial's runner sets its context's tool input to an `updatedInput`, and builds the next
   *  hook's HOOK_TOOL_INPUT from it). */
  readonly inOrderPassesInput?: boolean;
  /** A tool that ran and reported failure (a shell command's non-zero exit) fires this
   *  dialect's PostToolUse hooks, not its PostToolUseFailure ones (Codex); a function decides
   *  per call from the call as PostToolUse payload (Qwen Code 0.24: `grep`'s exit 1). */
  readonly ranToolFailureIsPostToolUse?:
    | boolean
    | ((ranAs: EventPayload<"PostToolUse">) => boolean);
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
  /** The unit `timeout` is written in in its files (said when a hook times out). "s-or-ms":
   *  seconds, but 1000 or more is milliseconds (Qwen Code 0.24, see qwen/timeout.ts). */
  readonly timeoutUnit: TimeoutUnit;
  readonly exitTable: ExitTable;
  /** Whether JSON on stdout is read as structured output. */
  readonly parsesJson: boolean;
}

/** How a dialect's files write `timeout`. */
export type TimeoutUnit = "s" | "ms" | "s-or-ms";

/** A setting that switches hooks of a dialect off. */
export interface DialectDisable {
  /** How the setting is written, for messages (`"hooksConfig.enabled": false`). */
  setting: string;
  /** Which of the dialect's hooks it names (undefined: every one). */
  matches?(handler: HandlerConfig): boolean;
}

/** Declares a dialect; the literal name is kept so the registry can derive DialectName. */
export function defineDialect<const N extends string>(d: Dialect<N>): Dialect<N> {
  return d;
}
