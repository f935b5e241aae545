/** The shapes shared by the differential tests: a case, and what one agent showed for it. */

/** A tool call in Claude Code's terms; the Keel side gets the equivalent call (see keel-script.ts). */
export interface ModelCall {
  tool: "Bash" | "Write" | "Read" | "Edit";
  /** Claude's input fields; `$PROJECT` in a string stands for the project directory. */
  input: Record<string, unknown>;
}

/** One scripted model turn. */
export interface ModelTurn {
  text?: string;
  calls?: ModelCall[];
}

/** One recording hook: where it is registered and how it answers. */
export interface HookSpec {
  /** A short id, unique in the case; names its recordings. */
  id: string;
  event: string;
  /** Omitted: no matcher field at all. */
  matcher?: string;
  /**
   * Shell code run after the payload is recorded (`$P` is the payload file); its stdout, stderr
   * and exit status are the hook's answer. Empty: exit 0, no output.
   */
  answer?: string;
  /** Handler `timeout` in seconds. */
  timeout?: number;
  /** Hooks naming the same group share one matcher group (Claude-style settings only); its
   *  `sequential` flag is set when any of them asks (Gemini CLI's group field). */
  group?: string;
  sequential?: boolean;
}

/** One row of the table. */
export interface CompatCase {
  name: string;
  prompt: string;
  hooks: HookSpec[];
  turns: ModelTurn[];
  /** Files created in the project before the run (relative path → content). */
  files?: Record<string, string>;
  /**
   * A difference Keel keeps on purpose (docs/hooks.md "Where Keel deliberately differs"): why,
   * and the start of each difference phrase it explains. Any other difference still counts.
   */
  deliberate?: { why: string; allows: string[] };
}

/** One hook firing as the hook saw it. */
export interface HookRecord {
  id: string;
  payload: Record<string, unknown>;
  env: Record<string, string>;
}

/** Everything a hook or the model could observe of one run. */
export interface Observation {
  exitCode: number;
  /** The CLI's answer: the result text (json output) or its plain stdout. */
  result: string;
  hooks: HookRecord[];
  /** What the model received in each request after the first (new content, normalized). */
  modelView: string[][];
  /** Project files after the run (relative path → content), recordings excluded. */
  files: Record<string, string>;
  /** Paths in the run that stand for the project, home and transcript (for normalization). */
  paths: { root: string; project: string; home: string };
  /** Things the runner noticed (e.g. the transcript file could not be parsed). */
  notes: string[];
}
