/**
 * Variable expansion for handlers that carry text instead of a command line: http
 * `payloadTemplate` and `headers`, and the `$ARGUMENTS` of prompt and agent hooks.
 *
 * Expansion is a single pass over the template: substituted text is never expanded again, so a
 * payload value containing `$session_id` stays literal.
 */
import type { AnyEventPayload } from "./events.js";

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Flat variable names shared with command hooks' environment (docs/hooks.md "Environment variables"). */
const FLAT_NAME = /^(?:hook_event_name|tool_name|session_id|timestamp|tool_input_.+)$/;

/** Payload fields offered to templates besides the flat variables. */
const PAYLOAD_FIELDS = [
  "hook_event_name",
  "session_id",
  "transcript_path",
  "cwd",
  "permission_mode",
  "tool_name",
  "tool_use_id",
  "prompt",
  "source",
  "reason",
  "trigger",
  "message",
  "notification_type",
  "agent_id",
  "agent_type",
  "error",
] as const;

/**
 * Replaces `$NAME` and `${NAME}` in `text` with `resolve(NAME)`. When `resolve` returns
 * undefined the reference is kept as written.
 */
export function expandVariables(
  text: string,
  resolve: (name: string) => string | undefined,
): string {
  return text.replace(VARIABLE, (whole, braced: string | undefined, bare: string | undefined) => {
    const value = resolve(braced ?? bare ?? "");
    return value ?? whole;
  });
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** Options for `templateVariables`. */
export interface TemplateVariablesOptions {
  payload: AnyEventPayload;
  /** The hook's extra environment: its flat variables (`tool_name`, `tool_input_path`, ...) win,
   *  so an http hook sees the same values as a command hook of the same firing. */
  env?: Record<string, string>;
  /** Epoch milliseconds for `$timestamp` when the environment has none. */
  now?: number;
}

/**
 * The variables a `payloadTemplate` may use: `$hook_event_name`, `$session_id`, `$tool_name`,
 * `$timestamp`, `$cwd`, `$prompt`, ... and `$tool_input_<key>` for each scalar top-level field of
 * the tool input.
 */
export function templateVariables(opts: TemplateVariablesOptions): Record<string, string> {
  const vars: Record<string, string> = {};
  const fields: Record<string, unknown> = { ...opts.payload };
  for (const name of PAYLOAD_FIELDS) {
    const text = scalarText(fields[name]);
    if (text !== undefined) vars[name] = text;
  }
  const input = fields.tool_input;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    for (const [key, value] of Object.entries(input)) {
      const text = scalarText(value);
      if (text !== undefined) vars[`tool_input_${key}`] = text;
    }
  }
  vars.timestamp = new Date(opts.now ?? Date.now()).toISOString();
  // for…in: a hook's environment keeps the user's variables in its prototype (hook-env.ts).
  const env = opts.env ?? {};
  for (const name in env) {
    const value = env[name];
    if (value !== undefined && FLAT_NAME.test(name)) vars[name] = value;
  }
  return vars;
}

/**
 * Expands a `payloadTemplate`: every string inside the JSON value (not object keys) has its
 * variables replaced. Unknown `$tool_input_<key>` become empty (the field is absent); other
 * unknown names stay literal, so `$5` or `$HOME` in a template are not touched.
 */
export function expandTemplate(template: unknown, vars: Record<string, string>): unknown {
  const resolve = (name: string): string | undefined =>
    Object.hasOwn(vars, name) ? vars[name] : name.startsWith("tool_input_") ? "" : undefined;
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return expandVariables(value, resolve);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(template);
}

/** Options for `expandHeaders`. */
export interface ExpandHeadersOptions {
  headers: Record<string, string>;
  /** Only these names are looked up; every other `$VAR` becomes the empty string. */
  allowedEnvVars: readonly string[];
  env: Record<string, string | undefined>;
}

/** Header names HTTP allows (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Framing and routing headers the handler owns; a configured value is ignored. */
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

/**
 * Expands `$VAR` / `${VAR}` in header values from `env`, but only for names listed in
 * `allowedEnvVars` (others become empty, so a project file cannot exfiltrate arbitrary
 * secrets); strips CR, LF, NUL and other control characters so a value cannot split headers.
 * Names that are not valid header names, and framing headers, are dropped and listed.
 */
export function expandHeaders(opts: ExpandHeadersOptions): {
  headers: Record<string, string>;
  dropped: string[];
} {
  const allowed = new Set(opts.allowedEnvVars);
  const headers: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, raw] of Object.entries(opts.headers)) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) {
      dropped.push(name);
      continue;
    }
    const value = expandVariables(raw, (v) => (allowed.has(v) ? (opts.env[v] ?? "") : ""));
    headers[name] = value.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, "").trim();
  }
  return { headers, dropped };
}

/**
 * Puts the payload JSON into a prompt: every `$ARGUMENTS` is replaced by it; without one, it is
 * appended after a blank line.
 */
export function substituteArguments(prompt: string, payloadJson: string): string {
  if (prompt.includes("$ARGUMENTS")) return prompt.split("$ARGUMENTS").join(payloadJson);
  return `${prompt}\n\n${payloadJson}`;
}
