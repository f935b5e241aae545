/**
 * What hooks need to know about each built-in tool, one descriptor per tool: the argument `if`
 * conditions match (the same one the tool's `primaryArg` returns; test/tools/hook-facts.test.ts
 * holds them together), its input fields and which of them are paths. Data only: the agent
 * hands the list to the hooks engine (HookEngineOptions.tools), which may not import tools/.
 * `response` (per dialect) is where a dialect's own tool_response shape is built.
 */

import {
  claudeBashResponse,
  claudeEditResponse,
  claudeReadResponse,
  claudeWriteResponse,
} from "./claude-responses.js";
import {
  geminiEditResponse,
  geminiWriteResponse,
  qwenEditResponse,
  qwenReadResponse,
  qwenShellResponse,
  qwenWriteResponse,
} from "./qwen-responses.js";
import {
  reasonixBashResult,
  reasonixEditResult,
  reasonixReadResult,
  reasonixWriteResult,
} from "./reasonix-responses.js";

/** Structurally the hooks engine's HookToolDescriptor (tools/ imports nothing from src/). */
export interface ToolHookFacts {
  readonly name: string;
  readonly primaryArg: string;
  readonly primaryDefault?: string;
  readonly inputFields: readonly string[];
  readonly pathFields: readonly string[];
  readonly response?: Readonly<
    Record<string, (response: unknown, input: Record<string, unknown>) => unknown>
  >;
}

/** The descriptors of the built-in tools. */
export const BUILTIN_TOOL_HOOK_FACTS: readonly ToolHookFacts[] = [
  {
    name: "shell",
    primaryArg: "command",
    inputFields: ["command", "timeout_ms"],
    pathFields: [],
    response: {
      claude: claudeBashResponse,
      reasonix1: reasonixBashResult,
      qwen: qwenShellResponse,
      gemini: qwenShellResponse,
    },
  },
  {
    name: "read_file",
    primaryArg: "path",
    inputFields: ["path", "offset", "limit"],
    pathFields: ["path"],
    response: {
      claude: claudeReadResponse,
      reasonix1: reasonixReadResult,
      qwen: qwenReadResponse,
      gemini: qwenReadResponse,
    },
  },
  {
    name: "write_file",
    primaryArg: "path",
    inputFields: ["path", "content"],
    pathFields: ["path"],
    response: {
      claude: claudeWriteResponse,
      reasonix1: reasonixWriteResult,
      qwen: qwenWriteResponse,
      gemini: geminiWriteResponse,
    },
  },
  {
    name: "edit_file",
    primaryArg: "path",
    inputFields: ["path", "old_string", "new_string", "replace_all"],
    pathFields: ["path"],
    response: {
      claude: claudeEditResponse,
      reasonix1: reasonixEditResult,
      qwen: qwenEditResponse,
      gemini: geminiEditResponse,
    },
  },
  {
    name: "glob",
    primaryArg: "path",
    primaryDefault: ".",
    inputFields: ["pattern", "path"],
    pathFields: ["path"],
  },
  {
    name: "grep",
    primaryArg: "path",
    primaryDefault: ".",
    inputFields: ["pattern", "path", "glob", "ignore_case"],
    pathFields: ["path"],
  },
  { name: "list_dir", primaryArg: "path", inputFields: ["path"], pathFields: ["path"] },
];
