/**
 * The facts hooks need about one tool, as one descriptor. The hooks engine imports nothing
 * from the tools layer: the tools layer fills these (src/tools/hook-facts.ts) and the agent
 * hands them to the engine (HookEngineOptions.tools). Without them (tests, library use) the
 * engine falls back to guessing the primary argument from common field names.
 */
import type { ToolInput } from "./events.js";

/** How a tool looks to hooks. */
export interface HookToolDescriptor {
  /** Keel's tool name. */
  readonly name: string;
  /** The input field `if` conditions (and permission rules) match: `command`, `path`, … */
  readonly primaryArg: string;
  /** Value of the primary argument when the input leaves it out (glob/grep: "."). */
  readonly primaryDefault?: string;
  /** Every input field the tool takes (an unknown one in `keel hooks test` is a warning). */
  readonly inputFields: readonly string[];
  /** Input fields that hold a path (dialects with absolute paths resolve them). */
  readonly pathFields: readonly string[];
  /**
   * The `tool_response` a dialect's hooks see, by dialect name, built from Keel's response
   * (`{content, isError, details}` as the agent sends it) and the call's Keel input, for a
   * tool of a library's own; a dialect not listed uses its `toolResponses` (Keel's built-ins,
   * hooks/dialects/<name>/responses.ts) and otherwise sees Keel's response unchanged.
   */
  readonly response?: Readonly<Record<string, (response: unknown, input: ToolInput) => unknown>>;
}

/** Descriptors by Keel tool name. */
export type HookToolCatalog = ReadonlyMap<string, HookToolDescriptor>;

/** Fields tried, in order, for the primary argument of tools without a descriptor. */
const FALLBACK_ARGS = ["command", "path", "file_path", "pattern", "url"];

/** The catalogue of a list of descriptors. */
export function toolCatalog(tools: readonly HookToolDescriptor[] = []): HookToolCatalog {
  return new Map(tools.map((t) => [t.name, t]));
}

/** The primary argument of a call: the descriptor's field, else the first common field set. */
export function primaryArgOf(
  catalog: HookToolCatalog | undefined,
  tool: string,
  input: ToolInput,
): { field: string; value: string } | undefined {
  const d = catalog?.get(tool);
  if (d) {
    const v = input[d.primaryArg];
    if (typeof v === "string") return { field: d.primaryArg, value: v };
    if (v === undefined && d.primaryDefault !== undefined) {
      return { field: d.primaryArg, value: d.primaryDefault };
    }
    return undefined;
  }
  const key = FALLBACK_ARGS.find((k) => typeof input[k] === "string");
  return key === undefined ? undefined : { field: key, value: input[key] as string };
}

/** Whether a field of this tool holds a path (descriptor, else the fallback `path`). */
export function isPathField(catalog: HookToolCatalog | undefined, tool: string, field: string) {
  const d = catalog?.get(tool);
  return d ? d.pathFields.includes(field) : field === "path" || field === "file_path";
}
