/**
 * The dialect registry: every dialect Keel reads, in ONE list (adding a dialect = its folder
 * plus one line here). Also the small decisions that depend on the whole list.
 */
import { EVENT_SPECS, type HookEventName } from "../events.js";
import { cagentDialect } from "./cagent/index.js";
import { claudeDialect } from "./claude/index.js";
import { codexDialect } from "./codex/index.js";
import { geminiDialect } from "./gemini/index.js";
import { keelDialect } from "./keel/index.js";
import { pluginDialect } from "./plugin/index.js";
import { qwenDialect } from "./qwen/index.js";
import { reasonixDialect } from "./reasonix/index.js";
import { reasonix1Dialect } from "./reasonix1/index.js";
import { tutorialDialect } from "./tutorial/index.js";
import type { Dialect } from "./types.js";

export { ENV_VALUE_MAX_CHARS, type ShapedPayload, shapePayload, toolOutputText } from "./shape.js";
export type {
  Dialect,
  DialectContext,
  DialectFile,
  DialectSessionFacts,
  ExitTable,
  MatcherStyle,
} from "./types.js";

/** Every dialect, in the order their files are read (Keel's first: its settings govern the
 *  rest) and their tool names are looked up. */
export const DIALECT_LIST = [
  keelDialect,
  claudeDialect,
  reasonixDialect,
  tutorialDialect,
  cagentDialect,
  reasonix1Dialect,
  geminiDialect,
  qwenDialect,
  codexDialect,
  pluginDialect,
] as const satisfies readonly Dialect[];

/** The name of a dialect Keel reads. */
export type DialectName = (typeof DIALECT_LIST)[number]["name"];

/** Every dialect by name. */
export const DIALECTS = Object.fromEntries(DIALECT_LIST.map((d) => [d.name, d])) as Readonly<
  Record<DialectName, Dialect<DialectName>>
>;

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
