/** The built-in tool set, its specs for the model, and argument validation worded for the model. */
import type { z } from "zod";
import type { AnyToolDefinition, BuiltinToolOptions } from "./define.js";
import { editFileTool } from "./edit-file.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { killShellTool } from "./kill-shell.js";
import { listDirTool } from "./list-dir.js";
import { readFileTool } from "./read-file.js";
import { defaultShellOperations, shellTool } from "./shell.js";
import { ShellJobs } from "./shell-jobs.js";
import { shellOutputTool } from "./shell-output.js";
import { skillTool } from "./skill.js";
import { todoWriteTool } from "./todo-write.js";
import type { Tool, ToolContext } from "./types.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";
import { writeFileTool } from "./write-file.js";

export type { BuiltinToolOptions } from "./define.js";

/** Any tool, whatever its input type. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous list of tools needs an erased input type
export type AnyTool = Tool<any>;

/**
 * The built-in tools' definitions, one line each, in a fixed order: the order of the specs
 * sent to the model is part of the cached prefix, so never reorder; a new tool goes last.
 */
export const BUILTIN_TOOL_DEFINITIONS: readonly AnyToolDefinition[] = [
  shellTool,
  readFileTool,
  writeFileTool,
  editFileTool,
  globTool,
  grepTool,
  listDirTool,
  shellOutputTool,
  killShellTool,
  webFetchTool,
  webSearchTool,
  todoWriteTool,
  skillTool,
];

/** The built-in tools for a project, in the definitions' order. */
export function createBuiltinTools(ctx: ToolContext, opts: BuiltinToolOptions = {}): AnyTool[] {
  // One job table for the shell, shell_output and kill_shell of this tool set.
  const jobs =
    opts.jobs ?? new ShellJobs(opts.jobsDir, (opts.shellOps ?? defaultShellOperations).killGroup);
  return BUILTIN_TOOL_DEFINITIONS.filter((def) => def.offered?.(opts) ?? true).map((def) =>
    def.create(ctx, { ...opts, jobs }),
  );
}

/** The names of the read-only built-in tools (plan mode, agent hooks, sub-agents). */
export const READ_ONLY_TOOL_NAMES: readonly string[] = BUILTIN_TOOL_DEFINITIONS.filter(
  (def) => def.readOnly,
).map((def) => def.name);

/** Example inputs for the built-in tools (`keel hooks test` without `--input`). */
export const BUILTIN_TOOL_SAMPLES: Readonly<Record<string, Record<string, unknown>>> =
  Object.fromEntries(BUILTIN_TOOL_DEFINITIONS.map((def) => [def.name, def.sample]));

/** A function tool as declared to the model; structurally the llm layer's ToolSpec. */
export interface ToolSpecShape {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The specs sent to the model, in the tools' order. */
export function toolSpecs(tools: readonly AnyTool[]): ToolSpecShape[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** Finds a tool by name. */
export function findTool(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name);
}

/** A validated input, or an error message for the model naming the fields at fault. */
export type ValidationResult<I> = { ok: true; input: I } | { ok: false; error: string };

/**
 * Validates raw arguments (an object, or a JSON string of one) against a tool's schema.
 * Must not throw.
 */
export function validateToolInput<I extends Record<string, unknown>>(
  tool: Tool<I>,
  raw: unknown,
): ValidationResult<I> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = raw.trim() === "" ? {} : JSON.parse(raw);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, error: `${tool.name}: the arguments are not valid JSON (${why}).` };
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      error: `${tool.name}: the arguments must be a JSON object${expectedFields(tool)}.`,
    };
  }
  const parsed = tool.schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, value));
  return {
    ok: false,
    error: `${tool.name}: invalid arguments: ${problems.join("; ")}${expectedFields(tool)}.`,
  };
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const field = issue.path.map(String).join(".");
  const where = field ? `\`${field}\`` : "arguments";
  switch (issue.code) {
    case "invalid_type": {
      const got = valueAt(value, issue.path);
      if (got === undefined) return `${where} is required (${issue.expected})`;
      return `${where} must be ${article(issue.expected)}, got ${typeName(got)}`;
    }
    case "unrecognized_keys":
      return `unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.map((k) => `\`${k}\``).join(", ")}`;
    case "too_big":
      return `${where} must be at most ${String(issue.maximum)}${issue.origin === "string" ? " characters" : ""}`;
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1)
        return `${where} must not be empty`;
      return `${where} must be at least ${String(issue.minimum)}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}

function expectedFields(tool: AnyTool): string {
  const props = tool.parameters.properties;
  if (typeof props !== "object" || props === null) return "";
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required : [];
  const fields = Object.keys(props).map((k) => (required.includes(k) ? k : `${k}?`));
  return ` (expected {${fields.join(", ")}})`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return article(typeof v);
}
