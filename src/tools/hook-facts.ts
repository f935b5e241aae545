/**
 * What hooks need to know about each built-in tool, derived from the tool definitions
 * (registry.ts): the argument `if` conditions match, its input fields, which of them are
 * paths. (How each dialect shapes a tool's `tool_response` is the dialect's:
 * hooks/dialects/<name>/responses.ts.) Data only: the agent hands the list to the
 * hooks engine (HookEngineOptions.tools), which may not import tools/.
 */
import type { AnyToolDefinition } from "./define.js";
import { BUILTIN_TOOL_DEFINITIONS } from "./registry.js";

/** Structurally the hooks engine's HookToolDescriptor (tools/ imports nothing from src/). */
export interface ToolHookFacts {
  readonly name: string;
  readonly primaryArg: string;
  readonly primaryDefault?: string;
  readonly inputFields: readonly string[];
  readonly pathFields: readonly string[];
}

/** One definition's hook descriptor. */
export function hookFactsOf(def: AnyToolDefinition): ToolHookFacts {
  return {
    name: def.name,
    primaryArg: def.primaryArg,
    ...(def.primaryDefault !== undefined ? { primaryDefault: def.primaryDefault } : {}),
    inputFields: def.inputFields,
    pathFields: def.pathFields,
  };
}

/** The descriptors of the built-in tools. */
export const BUILTIN_TOOL_HOOK_FACTS: readonly ToolHookFacts[] =
  BUILTIN_TOOL_DEFINITIONS.map(hookFactsOf);
