/** Handler type → handler. The engine picks by `hook.handler.type`. */
import type { SpawnFn } from "../process.js";
import type { HandlerType } from "../types.js";
import { agentHandler } from "./agent.js";
import { createCommandHandler } from "./command.js";
import { httpHandler } from "./http.js";
import { mcpToolHandler } from "./mcp-tool.js";
import { promptHandler } from "./prompt.js";
import type { Handler } from "./types.js";

/** The handlers for every type; `spawn` replaces node's spawn for command hooks. */
export function createHandlers(deps: { spawn?: SpawnFn } = {}): Record<HandlerType, Handler> {
  return {
    command: createCommandHandler(deps),
    http: httpHandler,
    prompt: promptHandler,
    agent: agentHandler,
    mcp_tool: mcpToolHandler,
  };
}
