/**
 * MCP tools as Keel tools: named `mcp__<server>__<tool>`, the server's JSON schema sent as is (the
 * prefix renders it canonically), results turned into text for the model — text content as is,
 * images, audio and resources summarized, `isError` as an error result — capped like the shell's.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HeadTailBuffer } from "../tools/output-buffer.js";
import { SHELL_MODEL_OUTPUT_BYTES } from "../tools/shell.js";
import type { Tool, ToolResult } from "../tools/types.js";
import type { ListedTool } from "./connection.js";

/** What marks a tool as MCP and says how permissions treat it. */
export interface McpToolInfo {
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  /** The server annotated it `readOnlyHint: true`. */
  readOnly: boolean;
  /** A `permissions.allow` rule in settings names it or its server. */
  allowed: boolean;
}

/** A Keel tool backed by an MCP server. */
export interface McpTool extends Tool<Record<string, unknown>> {
  mcp: McpToolInfo;
  /** Its server no longer lists it (retiredMcpTool). */
  retired?: boolean;
}

/** Longest description sent to the model (a server's long manual would bloat every request). */
export const MAX_DESCRIPTION_CHARS = 2048;

/** The model-facing name: `mcp__<server>__<tool>`, characters outside [A-Za-z0-9_-] as `_`. */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  return `mcp__${clean(server)}__${clean(tool)}`;
}

/** Whether a tool name is an MCP tool's. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith("mcp__");
}

/**
 * A flattened MCP name split into (server, tool): the server is what lies between `mcp__` and the
 * next `__`. Unambiguous because a server name holds no `__` and does not end in `_` (config.ts
 * refuses such names), so `mcp__docs__x__write` is server `docs`, tool `x__write` — never a tool
 * of a server `docs__x`.
 */
export function splitMcpName(name: string): { server: string; tool: string | null } | null {
  if (!name.startsWith("mcp__")) return null;
  const rest = name.slice(5);
  const at = rest.indexOf("__");
  if (at < 0) return { server: rest, tool: null };
  return { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

/**
 * Whether an allow rule (`mcp__server`, `mcp__server__*`, `mcp__server__tool`) covers a tool
 * name: the (server, tool) pair must match exactly, never a prefix of the flattened name.
 */
export function allowRuleMatches(rule: string, toolName: string): boolean {
  const r = splitMcpName(rule);
  const t = splitMcpName(toolName);
  if (r === null || t === null || t.tool === null) return false;
  if (r.server !== t.server) return false;
  return r.tool === null || r.tool === "*" || r.tool === t.tool;
}

/** Why a server name cannot be used, or null: it becomes the `<server>` of `mcp__<server>__<tool>`. */
export function serverNameProblem(name: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return 'a server name may hold only letters, digits, "_" and "-" (it becomes part of tool names)';
  }
  if (name.includes("__") || name.endsWith("_")) {
    return 'a server name may not contain "__" or end in "_" (tool names are mcp__<server>__<tool>, and permission rules find the server by the first "__")';
  }
  return null;
}

/** Calls a tool on its server (the connection manager provides it). */
export type McpCaller = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CallToolResult>;

/** Builds the Keel tool for one listed MCP tool. */
export function createMcpTool(opts: {
  server: string;
  listed: ListedTool;
  allowRules: readonly string[];
  call: McpCaller;
}): McpTool {
  const { server, listed } = opts;
  const name = mcpToolName(server, listed.name);
  const description =
    listed.description.length > MAX_DESCRIPTION_CHARS
      ? `${listed.description.slice(0, MAX_DESCRIPTION_CHARS)}…`
      : listed.description;
  return {
    name,
    description,
    // The server validates its own arguments; the model's object reaches it unchanged.
    schema: z.record(z.string(), z.unknown()),
    parameters: listed.inputSchema,
    kind: listed.readOnly ? "read" : "write",
    primaryArg: () => undefined,
    mcp: {
      server,
      tool: listed.name,
      readOnly: listed.readOnly,
      allowed: opts.allowRules.some((r) => allowRuleMatches(r, name)),
    },
    run: async (input, { signal }): Promise<ToolResult> => {
      try {
        const result = await opts.call(server, listed.name, input, signal);
        return mcpResultToToolResult(result);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return {
          content: `MCP server ${server} failed to run ${listed.name}: ${why}`,
          isError: true,
        };
      }
    },
  };
}

/**
 * A tool its server no longer lists (found at `/mcp reload`). Its declaration stays in the
 * prefix, which only grows (taking it out would be a cache miss and a prefix revision that buys
 * the model nothing); a call to it gets this answer without reaching the server, and no
 * permission question (it does nothing).
 */
export function retiredMcpTool(tool: McpTool): McpTool {
  return {
    ...tool,
    kind: "read",
    mcp: { ...tool.mcp, readOnly: true },
    retired: true,
    run: async (): Promise<ToolResult> => ({
      content: `${tool.name} is no longer offered: MCP server ${tool.mcp.server} dropped ${tool.mcp.tool} from its tools (seen at /mcp reload). Do not call it again.`,
      isError: true,
    }),
  };
}

/** The text the model sees for a tool result, capped at the shell tool's output size. */
export function mcpResultToToolResult(result: CallToolResult): ToolResult {
  const parts: string[] = [];
  const summaries: Record<string, unknown>[] = [];
  for (const item of result.content ?? []) {
    const summary = summarizeContent(item as Record<string, unknown>);
    if (summary.text !== undefined) parts.push(summary.text);
    if (summary.detail) summaries.push(summary.detail);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  const buffer = new HeadTailBuffer(SHELL_MODEL_OUTPUT_BYTES);
  buffer.push(Buffer.from(parts.join("\n"), "utf8"));
  const isError = result.isError === true;
  const content =
    buffer.text() ||
    (isError ? "The MCP tool reported an error without a message." : "(no output)");
  return {
    content,
    isError,
    details: {
      ...(summaries.length > 0 ? { attachments: summaries } : {}),
      ...(buffer.truncated ? { truncatedBytes: buffer.omitted } : {}),
    },
  };
}

function summarizeContent(item: Record<string, unknown>): {
  text?: string;
  detail?: Record<string, unknown>;
} {
  const type = String(item.type);
  if (type === "text") return { text: typeof item.text === "string" ? item.text : "" };
  if (type === "image" || type === "audio") {
    const bytes = base64Bytes(item.data);
    const mime = String(item.mimeType ?? "unknown");
    return { text: `[${type}: ${mime}, ${bytes} bytes]`, detail: { type, mimeType: mime, bytes } };
  }
  if (type === "resource") {
    const r = (item.resource ?? {}) as Record<string, unknown>;
    const uri = String(r.uri ?? "");
    const mime = String(r.mimeType ?? "unknown");
    const bytes = typeof r.text === "string" ? Buffer.byteLength(r.text) : base64Bytes(r.blob);
    return {
      text: `[resource: ${uri}, ${mime}, ${bytes} bytes]`,
      detail: { type, uri, mimeType: mime, bytes },
    };
  }
  if (type === "resource_link") {
    const uri = String(item.uri ?? "");
    const name = typeof item.name === "string" ? ` (${item.name})` : "";
    return { text: `[resource link: ${uri}${name}]`, detail: { type, uri } };
  }
  return { text: `[${type} content]`, detail: { type } };
}

function base64Bytes(data: unknown): number {
  if (typeof data !== "string") return 0;
  const pad = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}
