/**
 * The mcp_tool handler (Claude Code's `{"type": "mcp_tool", "server", "tool", "input"}`): calls a
 * tool on one of the session's MCP servers through the runner the agent injects (hooks/ never
 * talks MCP itself). `${path}` in the input's strings is filled from the payload
 * (`${tool_input.file_path}`). The tool's text is read like a command hook's stdout (JSON
 * decisions apply); an `isError` result is a warning with the text as stderr.
 */
import { isRecord } from "../../base/index.js";
import { capText, decided, errorText, settle, startDeadline } from "./run-support.js";
import type { Handler, HandlerRunRequest, RawRunResult } from "./types.js";

/** Fills `${a.b}` in every string of `input` from the payload (missing paths become ""). */
export function fillMcpInput(input: unknown, payload: unknown): unknown {
  if (typeof input === "string") {
    return input.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (_m, path: string) => {
      let value: unknown = payload;
      for (const key of path.split(".")) value = isRecord(value) ? value[key] : undefined;
      if (value === undefined || value === null) return "";
      return typeof value === "string" ? value : JSON.stringify(value);
    });
  }
  if (Array.isArray(input)) return input.map((v) => fillMcpInput(v, payload));
  if (isRecord(input)) {
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, fillMcpInput(v, payload)]));
  }
  return input;
}

function payloadObject(req: HandlerRunRequest): unknown {
  try {
    return JSON.parse(req.stdin);
  } catch {
    return req.payload;
  }
}

/** The mcp_tool handler: asks `req.mcpToolRunner`; without one it warns. */
export const mcpToolHandler: Handler = async (req) => {
  const handler = req.hook.handler;
  const deadline = startDeadline({ timeoutMs: req.timeoutMs, signal: req.signal });
  try {
    if (handler.type !== "mcp_tool") {
      return decided("error", {
        message: `mcp_tool handler given a ${handler.type} hook`,
        durationMs: 0,
      });
    }
    const runner = req.mcpToolRunner;
    if (!runner) {
      return decided("warn", {
        message: "mcp_tool hooks need the session's MCP servers: none are connected here",
        durationMs: deadline.elapsedMs(),
      });
    }
    const input = fillMcpInput(handler.input ?? {}, payloadObject(req));
    const settled = await settle(
      deadline,
      Promise.resolve().then(() =>
        runner({
          server: handler.server,
          tool: handler.tool,
          input: isRecord(input) ? input : {},
          signal: deadline.signal,
        }),
      ),
    );
    if (settled.kind === "timeout") {
      return decided("timeout", {
        message: `mcp_tool hook timed out after ${req.timeoutMs} ms`,
        durationMs: deadline.elapsedMs(),
      });
    }
    if (settled.kind === "cancelled")
      return decided("cancelled", {
        message: "mcp_tool hook cancelled",
        durationMs: deadline.elapsedMs(),
      });
    if (settled.kind === "failed") {
      return decided("warn", {
        message: `mcp_tool hook ${handler.server}/${handler.tool} failed: ${errorText(settled.error)}`,
        durationMs: deadline.elapsedMs(),
      });
    }
    const text = capText(settled.value.text, req.maxOutputBytes);
    const result: RawRunResult = {
      kind: "raw",
      exitCode: settled.value.isError ? 1 : 0,
      signal: null,
      stdout: settled.value.isError ? "" : text.text,
      stderr: settled.value.isError ? text.text : "",
      truncated: text.truncated,
      timedOut: false,
      cancelled: false,
      startError: null,
      durationMs: deadline.elapsedMs(),
    };
    return result;
  } finally {
    deadline.dispose();
  }
};
