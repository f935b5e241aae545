/**
 * FOR BENCHMARKS AND THE PREFIX TEST ONLY: a chat client that sends what a framework which
 * rebuilds its prompt every time sends — a timestamped system message and tool specs with
 * shuffled key order — so bench/cache can show what Keel's byte-stable prefix saves and
 * test/agent/prefix-invariant.test.ts can show its check fails without it. It wraps the client
 * instead of living in the agent, so nothing of it is on Keel's own request path.
 */
import { renderMessage } from "../../src/agent/render.js";
import { stableStringify } from "../../src/llm/stable-json.js";
import type { ChatClient, ChatRequest } from "../../src/llm/types.js";

/** Wraps `client` so every conversation request (the ones carrying tool specs) is cache-hostile. */
export function cacheHostileClient(client: ChatClient, clock: () => number = Date.now): ChatClient {
  return { stream: (req) => client.stream(hostileRequest(req, clock())) };
}

/** The request with its system message timestamped and its tool specs' keys shuffled. */
function hostileRequest(req: ChatRequest, now: number): ChatRequest {
  // Side requests (prompt hooks, harvest) carry no tools; the agent's own always do.
  if (req.tools === undefined) return req;
  const [first = renderMessage({ role: "system", content: "" }), ...rest] = req.messages;
  const parsed: { content?: unknown } = JSON.parse(first);
  const content = `Current time: ${new Date(now).toISOString()}\n\n${String(parsed.content ?? "")}`;
  const system = renderMessage({ role: "system", content });
  return { ...req, messages: [system, ...rest], tools: shuffledJson(JSON.parse(req.tools)) };
}

function shuffledJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(shuffledJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      const a = entries[i];
      const b = entries[j];
      if (a !== undefined && b !== undefined) {
        entries[i] = b;
        entries[j] = a;
      }
    }
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${shuffledJson(v)}`).join(",")}}`;
  }
  return stableStringify(value);
}
