/**
 * FOR BENCHMARKS ONLY: the cache-hostile request parts `benchmarkCacheHostile` asks for — what a
 * framework that rebuilds its prompt every time sends.
 */
import { stableStringify } from "../llm/stable-json.js";
import type { ImmutablePrefix } from "./prefix.js";
import { renderMessage } from "./render.js";

/** FOR BENCHMARKS ONLY: a timestamped system message and tool specs with shuffled key order. */
export function hostileParts(
  prefix: ImmutablePrefix,
  now: number,
): { system: string; tools?: string } {
  const first = prefix.messages[0] ?? renderMessage({ role: "system", content: "" });
  const parsed: { content?: unknown } = JSON.parse(first);
  const content = `Current time: ${new Date(now).toISOString()}\n\n${String(parsed.content ?? "")}`;
  const system = renderMessage({ role: "system", content });
  if (prefix.toolsJson === undefined) return { system };
  return { system, tools: shuffledJson(JSON.parse(prefix.toolsJson)) };
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
