/**
 * The dialect registry: every dialect Keel reads, in ONE list (adding a dialect = its folder
 * plus one line here). Also the small decisions that depend on the whole list.
 */
import { EVENT_SPECS, type HookEventName } from "../events.js";
import { antigravityDialect } from "./antigravity/index.js";
import { cagentDialect } from "./cagent/index.js";
import { claudeDialect } from "./claude/index.js";
import { codexDialect } from "./codex/index.js";
import { geminiDialect } from "./gemini/index.js";
import { keelDialect } from "./keel/index.js";
import { DIALECT_NAMES, type DialectName } from "./names.js";
import { pluginDialect } from "./plugin/index.js";
import { qwenDialect } from "./qwen/index.js";
import { reasonixDialect } from "./reasonix/index.js";
import { reasonix1Dialect } from "./reasonix1/index.js";
import { tutorialDialect } from "./tutorial/index.js";
import type { Dialect } from "./types.js";

export { DIALECT_NAMES, type DialectName } from "./names.js";
export { ENV_VALUE_MAX_CHARS, type ShapedPayload, shapePayload, toolOutputText } from "./shape.js";
export type {
  Dialect,
  DialectContext,
  DialectFile,
  DialectSessionFacts,
  DialectTranscript,
  ExitTable,
  MatcherStyle,
  TranscriptFacts,
} from "./types.js";

/** Every dialect by name: exactly one for each name in names.ts, whose `name` is its key
 *  (checked by the type: a missing, extra or misnamed dialect does not compile). */
export const DIALECTS: Readonly<Record<DialectName, Dialect<DialectName>>> = {
  keel: keelDialect,
  claude: claudeDialect,
  reasonix: reasonixDialect,
  tutorial: tutorialDialect,
  cagent: cagentDialect,
  reasonix1: reasonix1Dialect,
  gemini: geminiDialect,
  qwen: qwenDialect,
  codex: codexDialect,
  antigravity: antigravityDialect,
  plugin: pluginDialect,
} satisfies { [N in DialectName]: Dialect<N> };

/** Every dialect, in the order their files are read (Keel's first: its settings govern the
 *  rest) and their tool names are looked up (names.ts). */
export const DIALECT_LIST: readonly Dialect<DialectName>[] = DIALECT_NAMES.map((n) => DIALECTS[n]);

/** Whether `name` names a dialect. */
export function isDialectName(name: string): name is DialectName {
  return Object.hasOwn(DIALECTS, name);
}

/** Whether hooks of this dialect filter `event` by their matcher, as their own agent does. */
export function matcherApplies(dialect: Dialect, event: HookEventName): boolean {
  const spec = EVENT_SPECS[event];
  if (spec.matcherField === null) return false;
  if (!spec.toolEvent && !dialect.matchesNonToolEvents) return false;
  return dialect.ignoresMatcherOn?.has(event) !== true;
}

/** The Keel tool a name from any dialect refers to (`Bash`, `run_command`, `bash` → `shell`). */
export function keelToolNameFromAny(name: string): string {
  for (const d of DIALECT_LIST) {
    if (d.name === "keel") continue;
    const keel = d.keelToolName(name);
    if (keel !== undefined) return keel;
  }
  return name;
}

/** Which dialects know a tool name, and the Keel tool it is (for `keel hooks test --tool`). */
export function dialectsOfToolName(name: string): { dialect: string; keelTool: string }[] {
  const out: { dialect: string; keelTool: string }[] = [];
  for (const d of DIALECT_LIST) {
    const keel = d.name === "keel" ? undefined : d.keelToolName(name);
    if (keel !== undefined) out.push({ dialect: d.label, keelTool: keel });
  }
  return out;
}
