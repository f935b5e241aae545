/**
 * Elicitation requests from MCP servers, routed as Claude Code does: the Elicitation hook may
 * answer for the user (or decline with exit 2), then the user answers (the TUI), or the request is
 * declined (headless); the ElicitationResult hook sees the answer and may change it.
 */
import type { HookEngine } from "../hooks/index.js";
import type { ElicitationAnswer, ElicitationHandler } from "../mcp/index.js";
import type { AgentEvent } from "./events.js";
import { fireHook, type HookSessionInfo, isVeto } from "./hook-adapter/fire.js";

/** Options of `elicitWithHooks`. */
export interface ElicitOptions {
  engine: () => HookEngine;
  info: HookSessionInfo;
  /** Asks the user; absent means headless: requests nobody answers are declined. */
  user?: ElicitationHandler;
  /** Where hook rows and notices go (shown with the next events of the session). */
  notices: AgentEvent[];
}

/** The elicitation handler the agent installs on its MCP servers. Never throws. */
export function elicitWithHooks(o: ElicitOptions): ElicitationHandler {
  return async (req, signal) => {
    const fire = async (...args: Parameters<typeof fireHook>) => {
      const run = fireHook(...args);
      let step = await run.next();
      while (!step.done) {
        o.notices.push(step.value);
        step = await run.next();
      }
      return step.value;
    };
    const pre = await fire(
      o.engine(),
      o.info,
      "Elicitation",
      {
        mcp_server_name: req.server,
        message: req.message,
        mode: req.mode,
        ...(req.url !== undefined ? { url: req.url } : {}),
        ...(req.requestedSchema ? { requested_schema: req.requestedSchema } : {}),
      },
      signal,
    );
    let answer: ElicitationAnswer;
    if (isVeto(pre)) answer = { action: "decline" };
    else if (pre.elicitation) answer = pre.elicitation;
    else if (o.user) {
      try {
        answer = await o.user(req, signal);
      } catch {
        answer = { action: "decline" };
      }
    } else {
      answer = { action: "decline" };
      o.notices.push({
        type: "notice",
        level: "info",
        text: `MCP server ${req.server} asked for input (${req.message}); declined: nobody can answer in a headless session`,
      });
    }
    const post = await fire(
      o.engine(),
      o.info,
      "ElicitationResult",
      {
        mcp_server_name: req.server,
        action: answer.action,
        ...(answer.action === "accept" && answer.content ? { content: answer.content } : {}),
      },
      signal,
    );
    if (isVeto(post)) return { action: "decline" };
    return post.elicitation ?? answer;
  };
}
