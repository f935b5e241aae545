/**
 * `defineTool`: a built-in tool is one definition — schema, description, its facts for hooks,
 * rules and `keel hooks test`, and the factory that builds its run. The registry lists the
 * definitions once (registry.ts); the hook descriptors (hook-facts.ts), the read-only set, the
 * permission rules' tool names, `hooks test`'s sample inputs and the system prompt's tool line
 * are all derived from that list, so a new tool is its file plus one registry line.
 */
import type { z } from "zod";
import type { FileOperations, FileToolOptions } from "./file-operations.js";
import { toParameters } from "./json-schema.js";
import { displayPath } from "./paths.js";
import type { ShellOperations } from "./shell.js";
import type { ShellJobs } from "./shell-jobs.js";
import type { SkillCatalogPort } from "./skill.js";
import type { Tool, ToolContext, ToolKind } from "./types.js";
import type { WebAccess } from "./web-fetch.js";

/** Options for the built-in tool set (each definition takes what it needs). */
export interface BuiltinToolOptions {
  fileOps?: FileOperations;
  shellOps?: ShellOperations;
  /** Directories outside the project the read tools may also read. */
  extraReadDirs?: readonly string[];
  /** The session's skills (src/agent/skills/): the skill tool exists only when there are some. */
  skills?: SkillCatalogPort;
  /** Where background jobs' output goes (the session's folder); a private temp folder if unset. */
  jobsDir?: string;
  /** The background jobs the shell, shell_output and kill_shell tools share (createBuiltinTools
   *  makes one per tool set). */
  jobs?: ShellJobs;
  /** Network access through the SSRF guard (the agent's, from the user's settings): without
   *  it web_fetch and web_search are not offered. */
  web?: WebAccess;
  /** The session's model takes images (`"vision": true` in data/models.json): read_file's
   *  description then says it reads them. Fixed when the tool set is made (session start),
   *  so the prefix stays the same bytes for the session. */
  vision?: boolean;
}

/** What a tool file declares. `I` is its input, inferred from `schema`. */
export interface ToolDefinitionInput<I extends Record<string, unknown>> {
  name: string;
  /** Shown to the model in the tool spec (part of the cached prefix: bytes matter). */
  description: string;
  /** A strict zod object: validates the model's arguments; its keys are the tool's fields. */
  schema: z.ZodObject & z.ZodType<I>;
  kind: ToolKind;
  /** See Tool.changesState. */
  changesState?: boolean;
  /** The input field `if` conditions and permission rules match (`command`, `path`). */
  primaryArg: keyof I & string;
  /** The primary argument's value when the input leaves it out (glob/grep search "."). */
  primaryDefault?: string;
  /** Input fields that hold a path: shown relative to the project, resolved by some dialects. */
  pathFields: readonly (keyof I & string)[];
  /** What a permission rule's specifier matches, when not derived from `primaryArg` (a path or
   *  a command): "domain" for `WebFetch(domain:example.com)`, "none" for tools without one. */
  ruleSpec?: "domain" | "none";
  /** The input `keel hooks test` sends when none is given. */
  sample: I;
  /** Where the system prompt's "Prefer …" line names this read tool; the line's order is part
   *  of the cached prefix and predates the definitions, so it is stated, not sorted. */
  promptRank?: number;
  /** Whether the tool set offers the tool (web_search only with a provider the user named):
   *  a tool not offered adds nothing to the prefix. Default: always. */
  offered?(opts: BuiltinToolOptions): boolean;
  /** Builds the tool for a project: its `run`, with the options the tool set was given. */
  create(ctx: ToolContext, opts: BuiltinToolOptions): Tool<I>;
}

/** A definition with the facts derived from it. */
export interface ToolDefinition<I extends Record<string, unknown> = Record<string, unknown>>
  extends ToolDefinitionInput<I> {
  /** Every input field, from the schema's keys. */
  readonly inputFields: readonly string[];
  /** The JSON Schema sent to the model. */
  readonly parameters: Record<string, unknown>;
  /** Whether the tool only reads (plan mode, agent hooks, sub-agents). */
  readonly readOnly: boolean;
}

/** Any definition, whatever its input type. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of definitions needs an erased input type
export type AnyToolDefinition = ToolDefinition<any>;

/** Declares a built-in tool; the derived facts are computed once, here. */
export function defineTool<I extends Record<string, unknown>>(
  def: ToolDefinitionInput<I>,
): ToolDefinition<I> {
  return {
    ...def,
    inputFields: Object.keys(def.schema.shape),
    parameters: toParameters(def.schema),
    readOnly: def.kind === "read",
  };
}

/**
 * The part of a Tool that comes from its definition (everything but `run`): a tool's factory
 * spreads it into the Tool it returns. The primary argument of a path is shown relative to
 * the project, as permission rules and `if` conditions match it.
 */
export function toolFrame<I extends Record<string, unknown>>(
  def: ToolDefinition<I>,
  ctx: ToolContext,
): Omit<Tool<I>, "run"> {
  const isPath = (def.pathFields as readonly string[]).includes(def.primaryArg);
  return {
    name: def.name,
    description: def.description,
    schema: def.schema,
    parameters: def.parameters,
    kind: def.kind,
    ...(def.changesState ? { changesState: true } : {}),
    primaryArg: (input) => {
      const v = input[def.primaryArg] ?? def.primaryDefault;
      if (typeof v !== "string") return undefined;
      return isPath ? displayPath(ctx.cwd, v) : v;
    },
  };
}

/** The file tools' options out of the tool set's. */
export function fileToolOptions(opts: BuiltinToolOptions): FileToolOptions {
  return {
    ...(opts.fileOps ? { ops: opts.fileOps } : {}),
    ...(opts.extraReadDirs ? { extraReadDirs: opts.extraReadDirs } : {}),
  };
}
