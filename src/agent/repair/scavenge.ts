/**
 * Scavenging: tool calls the model wrote into `reasoning_content` or `content` instead of
 * `tool_calls` (DSML markup, the older `<｜tool▁calls▁begin｜>` markup, bare JSON objects) are
 * recovered, and the leaked markup is removed from the text so it is not shown or stored as
 * prose. Pure; never throws.
 *
 * Which text is trusted: markup is unambiguous, so it is always taken (deduplicated against the
 * declared calls). Bare JSON could be an example in prose, so it is taken only when the model
 * declared no calls. Reasoning is where the model drafts, so it is a source only when neither
 * `tool_calls` nor the content yielded a call.
 */
import { findJsonCalls } from "./bare-json.js";
import { callKey } from "./canonical.js";
import {
  findDsmlCalls,
  findLegacyCalls,
  hasMarkup,
  type LeakedCall,
  type Span,
  stripStrayMarkup,
} from "./markup.js";
import { repairJsonArguments } from "./truncation.js";

/** At most this many calls are recovered from one assistant message. */
export const MAX_SCAVENGED_CALLS = 4;

/** A recovered call, with the allowed tool name it resolved to. */
export interface ScavengedCall extends LeakedCall {
  source: "reasoning" | "content";
}

/** What scavenging found and the texts with the leaked markup removed. */
export interface ScavengeResult {
  calls: ScavengedCall[];
  content: string;
  reasoning: string;
  /** For people: what was recovered or ignored. */
  notes: string[];
}

/**
 * Maps a name the model used to an allowed tool name: exact, then without a `functions.`
 * prefix, then a unique case-insensitive match. Undefined when none fits.
 */
export function resolveToolName(name: string, allowed: readonly string[]): string | undefined {
  const trimmed = name.trim();
  if (allowed.includes(trimmed)) return trimmed;
  const bare = trimmed.replace(/^(?:functions?|tools?)[.:]/i, "");
  if (allowed.includes(bare)) return bare;
  const folded = allowed.filter((a) => a.toLowerCase() === bare.toLowerCase());
  return folded.length === 1 ? folded[0] : undefined;
}

interface Candidate {
  call: LeakedCall;
  /** For bare JSON: the object's span, removed only when the call is taken. */
  span?: Span;
}

interface TextScan {
  candidates: Candidate[];
  /** Markup spans: always removed. */
  markup: Span[];
}

function scan(text: string, opts: { bareJson: boolean }): TextScan {
  const candidates: Candidate[] = [];
  const markup: Span[] = [];
  if (hasMarkup(text)) {
    const dsml = findDsmlCalls(text);
    const old = findLegacyCalls(text);
    markup.push(...dsml.spans, ...old.spans);
    candidates.push(
      ...dsml.calls.map((call) => ({ call })),
      ...old.calls.map((call) => ({ call })),
    );
  }
  if (opts.bareJson) {
    for (const { call, span } of findJsonCalls(text)) {
      if (!markup.some((m) => span.start < m.end && span.end > m.start)) {
        candidates.push({ call, span });
      }
    }
  }
  return { candidates, markup };
}

/** Recovers leaked tool calls from an assistant message's texts. */
export function scavengeToolCalls(opts: {
  content: string;
  reasoning: string;
  allowedTools: readonly string[];
  /** The calls the model declared in `tool_calls` (already repaired). */
  declared: ReadonlyArray<{ name: string; args: Record<string, unknown> }>;
  limit?: number;
}): ScavengeResult {
  const limit = opts.limit ?? MAX_SCAVENGED_CALLS;
  const noDeclared = opts.declared.length === 0;
  const seen = new Set(opts.declared.map((d) => callKey(d.name, d.args)));
  const notes: string[] = [];
  const calls: ScavengedCall[] = [];
  const unknown = new Set<string>();
  let overLimit = 0;

  const take = (scanned: TextScan, source: ScavengedCall["source"]): Span[] => {
    const remove: Span[] = [...scanned.markup];
    for (const { call, span } of scanned.candidates) {
      const name = resolveToolName(call.name, opts.allowedTools);
      if (name === undefined) {
        if (!span) unknown.add(call.name);
        continue;
      }
      const key = callKey(name, repairJsonArguments(call.arguments).value);
      if (seen.has(key)) {
        if (span) remove.push(span);
        continue;
      }
      if (calls.length >= limit) {
        overLimit++;
        continue;
      }
      seen.add(key);
      calls.push({ ...call, name, source });
      if (span) remove.push(span);
    }
    return remove;
  };

  const contentScan = scan(opts.content, { bareJson: noDeclared });
  const contentRemove = take(contentScan, "content");
  const reasoningScan = scan(opts.reasoning, { bareJson: noDeclared });
  const reasoningRemove =
    noDeclared && calls.length === 0 ? take(reasoningScan, "reasoning") : reasoningScan.markup;

  for (const source of ["reasoning", "content"] as const) {
    const got = calls.filter((c) => c.source === source);
    if (got.length > 0) {
      const kinds = [...new Set(got.map((c) => FORMAT_LABEL[c.format]))].join(" and ");
      const list = got.map((c) => c.name).join(", ");
      notes.push(
        `recovered ${plural(got.length, "tool call")} leaked into the ${source} as ${kinds}: ${list}`,
      );
    }
  }
  for (const name of unknown) notes.push(`ignored a leaked call to unknown tool "${name}"`);
  if (overLimit > 0) {
    notes.push(`kept the first ${limit} leaked tool calls and dropped ${overLimit} more`);
  }
  return {
    calls,
    content: removeSpans(opts.content, contentRemove),
    reasoning: removeSpans(opts.reasoning, reasoningRemove),
    notes,
  };
}

const FORMAT_LABEL: Record<LeakedCall["format"], string> = {
  dsml: "DSML markup",
  legacy: "tool-call markup",
  json: "JSON",
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The text without the given spans and stray markup, tidied only when something was removed. */
function removeSpans(text: string, spans: Span[]): string {
  if (spans.length === 0 && !hasMarkup(text)) return text;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  let out = "";
  let pos = 0;
  for (const { start, end } of sorted) {
    if (start < pos) {
      pos = Math.max(pos, end);
      continue;
    }
    out += text.slice(pos, start);
    pos = end;
  }
  out += text.slice(pos);
  out = stripStrayMarkup(out);
  if (out === text) return text;
  return out
    .replace(/```[a-zA-Z]*\s*```/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
