/**
 * The http handler (docs/hooks.md "HTTP, prompt and agent hooks"): POST the hook payload to a URL.
 *
 * - 2xx with a JSON object body: a raw result with exit code 0 and the body as stdout, so
 *   decide.ts reads it exactly like a command's JSON output.
 * - 2xx with an empty body: pass. 2xx with anything else, any other status, a redirect (never
 *   followed) or a network failure: a warning. A status alone never blocks.
 * - The SSRF guard runs before any connection: the host is resolved once, every address is
 *   checked, and the connection goes to the checked address.
 *
 * `async: true` is the engine's business; this handler just runs.
 */

import { type Connector, type ConnectResponse, nodeConnector } from "../ssrf-connect.js";
import { checkTarget, type Resolver } from "../ssrf-resolve.js";
import { expandHeaders, expandTemplate, templateVariables } from "../template.js";
import type { HttpHandlerConfig } from "../types.js";
import {
  capText,
  type Deadline,
  decided,
  errorText,
  settle,
  startDeadline,
} from "./run-support.js";
import type { DecidedRunResult, Handler, HandlerResult, HandlerRunRequest } from "./types.js";

/** Injectable edges of the http handler (tests: a recording resolver and connector). */
export interface HttpHandlerDeps {
  /** Default: `dns.lookup` with `all: true`. Called at most once per run. */
  resolver?: Resolver;
  /** Default: node:http / node:https to the checked address. */
  connector?: Connector;
  /** Clock for `$timestamp` (epoch ms). */
  now?: () => number;
}

/** The URL for messages and records: no credentials, no query string (either may hold secrets). */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function parseUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `uses ${url.protocol.replace(/:$/, "")}; only http and https are allowed`;
  }
  return url;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

function requestBody(req: HandlerRunRequest, handler: HttpHandlerConfig, now: number): string {
  if (handler.payloadTemplate === undefined) return req.stdin.replace(/\r?\n$/, "");
  const vars = templateVariables({ payload: req.payload, env: req.env, now });
  return JSON.stringify(expandTemplate(handler.payloadTemplate, vars));
}

/** Creates the http handler with the given edges (all default to the real network). */
export function createHttpHandler(deps: HttpHandlerDeps = {}): Handler {
  const connector = deps.connector ?? nodeConnector;
  return async (req) => {
    const deadline = startDeadline({ timeoutMs: req.timeoutMs, signal: req.signal });
    try {
      return await runHttp(req, deps, connector, deadline);
    } catch (err) {
      // Nothing above should throw; if it does, the hook warns instead of breaking the firing.
      return decided("error", {
        message: `http hook failed: ${errorText(err)}`,
        durationMs: deadline.elapsedMs(),
      });
    } finally {
      deadline.dispose();
    }
  };
}

/** Ends one run: the outcome and message, with the time spent so far. */
type Done = (
  outcome: DecidedRunResult["outcome"],
  message: string | null,
  extra?: Partial<Omit<DecidedRunResult, "kind" | "outcome" | "message">>,
) => DecidedRunResult;

async function runHttp(
  req: HandlerRunRequest,
  deps: HttpHandlerDeps,
  connector: Connector,
  deadline: Deadline,
): Promise<HandlerResult> {
  const handler = req.hook.handler;
  const done: Done = (outcome, message, extra = {}) =>
    decided(outcome, { ...extra, message, durationMs: deadline.elapsedMs() });
  if (handler.type !== "http") return done("error", `http handler given a ${handler.type} hook`);

  const url = parseUrl(handler.url);
  if (typeof url === "string") return done("error", `http hook URL ${url}`);
  const where = displayUrl(url);
  if (deadline.cause() === "cancelled") return done("cancelled", "http hook cancelled");

  const check = await checkedAddress(req, deps, deadline, url, done);
  if ("kind" in check) return check;

  const { headers, stderr } = requestHeaders(req, handler, url);
  const body = requestBody(req, handler, (deps.now ?? Date.now)());

  const sent = await settle(
    deadline,
    connector({
      address: check.address,
      family: check.family,
      url,
      headers: { ...headers, "content-type": "application/json" },
      body,
      signal: deadline.signal,
      maxResponseBytes: req.maxOutputBytes,
    }),
  );
  if (sent.kind === "timeout") {
    return done("timeout", `http hook ${where} timed out after ${req.timeoutMs} ms`, { stderr });
  }
  if (sent.kind === "cancelled") return done("cancelled", "http hook cancelled", { stderr });
  if (sent.kind === "failed") {
    return done("warn", `http hook ${where}: ${errorText(sent.error)}`, { stderr });
  }
  return responseResult(req, sent.value, { where, stderr, deadline, done });
}

/** The SSRF guard (ssrf-resolve.ts): the address to connect to, or the run's end when the
 *  host cannot be resolved or is refused. Resolved once, so the checked address is the one used. */
async function checkedAddress(
  req: HandlerRunRequest,
  deps: HttpHandlerDeps,
  deadline: Deadline,
  url: URL,
  done: Done,
): Promise<{ address: string; family: 4 | 6 } | DecidedRunResult> {
  const where = displayUrl(url);
  const target = await settle(
    deadline,
    checkTarget({
      hostname: url.hostname,
      allowPrivateNetworks: req.allowPrivateNetworks,
      ...(deps.resolver ? { resolver: deps.resolver } : {}),
    }),
  );
  if (target.kind === "timeout")
    return done("timeout", `http hook timed out resolving ${url.hostname}`);
  if (target.kind === "cancelled") return done("cancelled", "http hook cancelled");
  if (target.kind === "failed")
    return done("warn", `http hook ${where}: ${errorText(target.error)}`);
  const check = target.value;
  if (!check.ok) {
    return check.reason === "refused"
      ? done("error", `http hook ${where}: ${check.message}`)
      : done("warn", `http hook ${where}: ${check.message}`);
  }
  return { address: check.address, family: check.family };
}

/** The hook's headers with `$VAR`s expanded from its allowed variables, URL credentials as
 *  Basic auth, and a stderr line naming the headers left out. */
function requestHeaders(
  req: HandlerRunRequest,
  handler: HttpHandlerConfig,
  url: URL,
): { headers: Record<string, string>; stderr: string } {
  const { headers, dropped } = expandHeaders({
    headers: handler.headers ?? {},
    allowedEnvVars: handler.allowedEnvVars ?? [],
    // The engine passes the hook's full environment (base env + dialect variables).
    env: req.env,
  });
  if (url.username && !Object.keys(headers).some((h) => h.toLowerCase() === "authorization")) {
    // Node ignores URL credentials when given an address; send them as the URL asked.
    const user = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(user, "utf8").toString("base64")}`;
  }
  const stderr = dropped.length ? `ignored headers: ${dropped.join(", ")}\n` : "";
  return { headers, stderr };
}

/** What a response means (this file's header): a JSON object from a 2xx is read like a
 *  command's output; a redirect, another status or another body warns. */
function responseResult(
  req: HandlerRunRequest,
  res: ConnectResponse,
  ctx: { where: string; stderr: string; deadline: Deadline; done: Done },
): HandlerResult {
  const { where, stderr, done } = ctx;
  const capped = capText(res.body, req.maxOutputBytes);
  const record = { stdout: capped.text, stderr, truncated: res.truncated || capped.truncated };
  if (res.status >= 300 && res.status < 400) {
    const to = res.location ? ` to ${res.location}` : "";
    return done(
      "warn",
      `http hook ${where}: redirect (HTTP ${res.status}${to}) not followed`,
      record,
    );
  }
  if (res.status < 200 || res.status >= 300) {
    return done("warn", `http hook ${where}: HTTP ${res.status}`, record);
  }
  const text = res.body.trim();
  if (text === "") return done("pass", null, { ...record, exitCode: 0 });
  if (record.truncated) {
    return done("warn", `http hook ${where}: response exceeds ${req.maxOutputBytes} bytes`, record);
  }
  if (!isJsonObject(text)) {
    return done("warn", `http hook ${where}: response body is not a JSON object`, record);
  }
  return {
    kind: "raw",
    exitCode: 0,
    signal: null,
    stdout: res.body,
    stderr,
    truncated: false,
    timedOut: false,
    cancelled: false,
    startError: null,
    durationMs: ctx.deadline.elapsedMs(),
  };
}

/** The http handler wired to the real resolver and network. */
export const httpHandler: Handler = createHttpHandler();
