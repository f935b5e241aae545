/**
 * Readers for DeepSeek's tool-call markup when it leaks into text instead of arriving as
 * `tool_calls`: the DSML form (V3.2/V4) and the older `<｜tool▁calls▁begin｜>` form (V3/V3.1).
 * Bars may be full-width `｜` or ASCII `|`. Pure; never throws.
 */
import { jsonDepthExceeded } from "../../base/index.js";
import { MAX_ARGUMENT_DEPTH } from "./truncation.js";

/** A tool call found in text, before any name or argument checks. */
export interface LeakedCall {
  name: string;
  /** The arguments as JSON text (may still need `repairJsonArguments`). */
  arguments: string;
  format: "dsml" | "legacy" | "json";
  /** True when the text ended inside a parameter value: that value is incomplete. */
  cutValue: boolean;
}

/** Where in the text a leaked block sits (removed from the cleaned text). */
export interface Span {
  start: number;
  end: number;
}

const BAR = "[｜|]";
const DSML = `<${BAR}DSML${BAR}`;
const DSML_CLOSE = `</${BAR}DSML${BAR}`;
const DSML_BLOCK_OPEN = new RegExp(`${DSML}(?:function_calls|tool_calls)\\s*>`, "g");
const DSML_BLOCK_CLOSE = new RegExp(`${DSML_CLOSE}(?:function_calls|tool_calls)\\s*>`, "g");
const DSML_INVOKE_OPEN = new RegExp(`${DSML}invoke\\s+name\\s*=\\s*"([^"]*)"\\s*>`, "g");
const DSML_INVOKE_CLOSE = new RegExp(`${DSML_CLOSE}invoke\\s*>`, "g");
const DSML_PARAM = new RegExp(
  `${DSML}parameter\\s+name\\s*=\\s*"([^"]*)"((?:\\s+[a-z_]+\\s*=\\s*"[^"]*")*)\\s*>`,
  "g",
);
const DSML_PARAM_CLOSE = new RegExp(`${DSML_CLOSE}parameter\\s*>`, "g");
/** Any DSML tag, for sweeping up stray fragments. */
const DSML_ANY = new RegExp(`</?${BAR}DSML${BAR}[^>\\n]{0,200}>`, "g");

const SEP = "[▁_ ]";
const legacy = (word: string) => new RegExp(`<${BAR}${word.replaceAll(" ", SEP)}${BAR}>`, "g");
const LEGACY_BLOCK_OPEN = legacy("tool calls begin");
const LEGACY_BLOCK_CLOSE = legacy("tool calls end");
const LEGACY_CALL_OPEN = legacy("tool call begin");
const LEGACY_CALL_CLOSE = legacy("tool call end");
const LEGACY_SEP = legacy("tool sep");
const LEGACY_ANY = new RegExp(`<${BAR}tool${SEP}(?:calls?${SEP}(?:begin|end)|sep)${BAR}>`, "g");

/** Finds the first match of `re` at or after `from` (before `limit`), or null. */
function findFrom(
  re: RegExp,
  text: string,
  from: number,
  limit = text.length,
): RegExpExecArray | null {
  re.lastIndex = from;
  const m = re.exec(text);
  return m && m.index < limit ? m : null;
}

/** DSML blocks (`function_calls` / `tool_calls` wrappers, or bare `invoke`s) in `text`. */
export function findDsmlCalls(text: string): { calls: LeakedCall[]; spans: Span[] } {
  const calls: LeakedCall[] = [];
  const spans: Span[] = [];
  let pos = 0;
  for (;;) {
    const block = findFrom(DSML_BLOCK_OPEN, text, pos);
    const invoke = findFrom(DSML_INVOKE_OPEN, text, pos);
    const first = block && (!invoke || block.index <= invoke.index) ? block : invoke;
    if (!first) break;
    let end: number;
    if (first === block) {
      const bodyStart = first.index + first[0].length;
      const close = findFrom(DSML_BLOCK_CLOSE, text, bodyStart);
      end = close ? close.index + close[0].length : text.length;
      const region = { start: bodyStart, end: close ? close.index : text.length, closed: !!close };
      readInvokes(text, region, calls);
    } else {
      const close = findFrom(DSML_INVOKE_CLOSE, text, first.index);
      end = close ? close.index + close[0].length : text.length;
      readInvokes(text, { start: first.index, end, closed: !!close }, calls);
    }
    spans.push({ start: first.index, end });
    pos = end;
  }
  return { calls, spans };
}

function readInvokes(
  text: string,
  region: { start: number; end: number; closed: boolean },
  out: LeakedCall[],
): void {
  let pos = region.start;
  for (;;) {
    const open = findFrom(DSML_INVOKE_OPEN, text, pos, region.end);
    if (!open) return;
    const bodyStart = open.index + open[0].length;
    const next = findFrom(DSML_INVOKE_OPEN, text, bodyStart, region.end);
    const close = findFrom(DSML_INVOKE_CLOSE, text, bodyStart, next ? next.index : region.end);
    const bodyEnd = close ? close.index : next ? next.index : region.end;
    // Only a call that runs into the end of the text can have been cut off.
    const atEnd = !close && !next && !region.closed && region.end === text.length;
    out.push(readInvoke(open[1] ?? "", text.slice(bodyStart, bodyEnd), atEnd));
    pos = close ? close.index + close[0].length : bodyEnd;
  }
}

function readInvoke(name: string, body: string, atEnd: boolean): LeakedCall {
  const args: Record<string, unknown> = {};
  let sawParam = false;
  let cutValue = false;
  let pos = 0;
  for (;;) {
    const open = findFrom(DSML_PARAM, body, pos);
    if (!open) break;
    sawParam = true;
    const valueStart = open.index + open[0].length;
    const close = findFrom(DSML_PARAM_CLOSE, body, valueStart);
    const nextOpen = findFrom(DSML_PARAM, body, valueStart);
    const valueEnd = close && (!nextOpen || close.index < nextOpen.index) ? close.index : null;
    const end = valueEnd ?? (nextOpen ? nextOpen.index : body.length);
    if (valueEnd === null && !nextOpen && atEnd) cutValue = true;
    const isString = /\bstring\s*=\s*"([^"]*)"/.exec(open[2] ?? "")?.[1];
    const raw = body.slice(valueStart, end);
    Object.defineProperty(args, open[1] ?? "", {
      value: paramValue(raw, isString),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    pos = valueEnd !== null && close ? close.index + close[0].length : end;
  }
  if (!sawParam && body.trim() !== "") {
    // The "direct JSON" variant: the invoke body is the arguments object.
    return { name: name.trim(), arguments: body.trim(), format: "dsml", cutValue: false };
  }
  return { name: name.trim(), arguments: JSON.stringify(args), format: "dsml", cutValue };
}

/** A parameter's value: raw text when marked `string="true"`, else JSON when it parses. */
function paramValue(raw: string, stringAttr: string | undefined): unknown {
  if (stringAttr === "true") return raw;
  const trimmed = raw.trim();
  if (stringAttr === undefined && !/^(?:[{["\d-]|true$|false$|null$)/.test(trimmed)) return raw;
  // Too deep to walk later (the arguments are re-serialized recursively): kept as text.
  if (jsonDepthExceeded(trimmed, MAX_ARGUMENT_DEPTH) !== null) return stringAttr ? trimmed : raw;
  try {
    return JSON.parse(trimmed);
  } catch {
    return stringAttr === undefined ? raw : trimmed;
  }
}

/** The older `<｜tool▁calls▁begin｜>` form: blocks, and lone `tool▁call▁begin` entries. */
export function findLegacyCalls(text: string): { calls: LeakedCall[]; spans: Span[] } {
  const calls: LeakedCall[] = [];
  const spans: Span[] = [];
  let pos = 0;
  for (;;) {
    const block = findFrom(LEGACY_BLOCK_OPEN, text, pos);
    const lone = findFrom(LEGACY_CALL_OPEN, text, pos);
    const first = block && (!lone || block.index <= lone.index) ? block : lone;
    if (!first) break;
    let end: number;
    if (first === block) {
      const close = findFrom(LEGACY_BLOCK_CLOSE, text, first.index + first[0].length);
      const regionEnd = close ? close.index : text.length;
      end = close ? close.index + close[0].length : text.length;
      readLegacyCalls(text, { start: first.index, end: regionEnd }, calls);
    } else {
      const close = findFrom(LEGACY_CALL_CLOSE, text, first.index + first[0].length);
      end = close ? close.index + close[0].length : text.length;
      readLegacyCalls(text, { start: first.index, end }, calls);
    }
    spans.push({ start: first.index, end });
    pos = end;
  }
  return { calls, spans };
}

function readLegacyCalls(text: string, region: { start: number; end: number }, out: LeakedCall[]) {
  let pos = region.start;
  for (;;) {
    const open = findFrom(LEGACY_CALL_OPEN, text, pos, region.end);
    if (!open) return;
    const bodyStart = open.index + open[0].length;
    const next = findFrom(LEGACY_CALL_OPEN, text, bodyStart, region.end);
    const close = findFrom(LEGACY_CALL_CLOSE, text, bodyStart, next ? next.index : region.end);
    const bodyEnd = close ? close.index : next ? next.index : region.end;
    const call = readLegacyCall(text.slice(bodyStart, bodyEnd));
    if (call) out.push(call);
    pos = close ? close.index + close[0].length : bodyEnd;
  }
}

/** `function<sep>NAME\n```json\n{…}\n```` (V3) or `NAME<sep>{…}` (V3.1). */
function readLegacyCall(body: string): LeakedCall | null {
  const sep = findFrom(LEGACY_SEP, body, 0);
  if (!sep) return null;
  const before = body.slice(0, sep.index).trim();
  const after = body.slice(sep.index + sep[0].length);
  if (before === "function" || before === "") {
    const newline = after.search(/\r?\n/);
    const name = (newline < 0 ? after : after.slice(0, newline)).trim();
    const args = unfence(newline < 0 ? "" : after.slice(newline));
    return { name, arguments: args === "" ? "{}" : args, format: "legacy", cutValue: false };
  }
  const args = after.trim();
  return { name: before, arguments: args === "" ? "{}" : args, format: "legacy", cutValue: false };
}

/** The V3 form wraps arguments in a ```json fence as part of the format, not as a fault. */
function unfence(args: string): string {
  const text = args.trim();
  const open = /^```[a-zA-Z]*[ \t]*\r?\n?/.exec(text);
  if (!open) return text;
  const inner = text.slice(open[0].length);
  const close = inner.lastIndexOf("```");
  return (close >= 0 ? inner.slice(0, close) : inner).trim();
}

/** Removes any DSML or legacy tool-call tags left over after the blocks were cut out. */
export function stripStrayMarkup(text: string): string {
  return text.replace(DSML_ANY, "").replace(LEGACY_ANY, "");
}

/** True when the text holds any tool-call markup at all (cheap pre-check). */
export function hasMarkup(text: string): boolean {
  return /[｜|](?:DSML[｜|]|tool[▁_ ]call)/.test(text);
}
