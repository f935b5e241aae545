/**
 * A GET through the http hooks' SSRF guard (ssrf.ts, ssrf-resolve.ts, ssrf-connect.ts), for
 * web_fetch: the model names the URL, so it is the attacker here. Every hop is checked as the
 * first was: the host resolved once, every address checked, the checked address connected to;
 * a redirect is followed only to a URL that passes the same check, and only so many times.
 * Lives beside the guard (hooks/ imports nothing else in src/); the agent hands it to the tool.
 */
import { type Connector, nodeConnector } from "./ssrf-connect.js";
import { checkTarget, type Resolver } from "./ssrf-resolve.js";

/** Options for one guarded GET. */
export interface GuardedGetOptions {
  allowPrivateNetworks: boolean;
  allowLoopback: boolean;
  /** Bytes of the body kept; the download stops there. */
  maxBytes: number;
  /** Time for the whole fetch, redirects included. */
  timeoutMs: number;
  /** Redirects followed at most. */
  maxRedirects: number;
  signal: AbortSignal;
  /** Extra request headers (a search provider's key), sent only to the first URL's origin. */
  headers?: Record<string, string>;
  resolver?: Resolver;
  connector?: Connector;
}

/** What a guarded GET ended with. */
export type GuardedGetResult =
  | {
      ok: true;
      /** The URL the body came from (after redirects). */
      url: string;
      status: number;
      contentType: string;
      body: string;
      truncated: boolean;
    }
  | { ok: false; message: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** GETs `url` (http or https) through the SSRF guard. Never throws. */
export async function guardedGet(url: string, opts: GuardedGetOptions): Promise<GuardedGetResult> {
  const signal = AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]);
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, message: `not a valid URL: ${url}` };
  }
  const origin = current.origin;
  for (let hop = 0; ; hop++) {
    if (current.protocol !== "http:" && current.protocol !== "https:") {
      return {
        ok: false,
        message: `only http and https URLs are fetched, not ${current.protocol}`,
      };
    }
    if (current.username || current.password) {
      return { ok: false, message: "URLs with a user name or password are not fetched" };
    }
    const target = await checkTarget({
      hostname: current.hostname,
      allowPrivateNetworks: opts.allowPrivateNetworks,
      allowLoopback: opts.allowLoopback,
      who: "web_fetch",
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    });
    if (!target.ok) {
      const where = hop === 0 ? "" : ` (redirected to ${current.href})`;
      return { ok: false, message: `${target.message}${where}` };
    }
    let res: Awaited<ReturnType<Connector>>;
    try {
      res = await (opts.connector ?? nodeConnector)({
        address: target.address,
        family: target.family,
        url: current,
        method: "GET",
        headers: {
          "user-agent": "keel-web-fetch",
          accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5",
          ...(current.origin === origin ? opts.headers : {}),
        },
        body: "",
        signal,
        maxResponseBytes: opts.maxBytes,
      });
    } catch (err) {
      if (signal.aborted && !opts.signal.aborted) {
        return { ok: false, message: `no complete answer within ${opts.timeoutMs} ms` };
      }
      return { ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    if (REDIRECTS.has(res.status) && res.location) {
      if (hop >= opts.maxRedirects) {
        return { ok: false, message: `more than ${opts.maxRedirects} redirects` };
      }
      try {
        current = new URL(res.location, current);
      } catch {
        return { ok: false, message: `a redirect to an invalid URL: ${res.location}` };
      }
      continue;
    }
    return {
      ok: true,
      url: current.href,
      status: res.status,
      contentType: res.contentType ?? "",
      body: res.body,
      truncated: res.truncated,
    };
  }
}
