/**
 * A GET through the http hooks' SSRF guard (ssrf.ts, ssrf-resolve.ts, ssrf-connect.ts), for
 * web_fetch: the model names the URL, so it is the attacker here. Every hop is checked as the
 * first was: the host resolved once, every address checked, the checked address connected to;
 * a redirect is followed only to a URL that passes the same check, and only so many times.
 *
 * With `crossOrigin: "report"` (web_fetch) a redirect to another origin is not followed at all:
 * the permission rules (`WebFetch(domain:…)`) judged only the first URL, in the agent's pipeline,
 * so following would reach a host no rule allowed (or one a rule denies). The target comes back
 * as `redirect` for the model to fetch as a new call, which the rules then judge. Its host is not
 * even resolved here: a DNS lookup of a name the rules never saw already carries data out.
 * Lives beside the guard (hooks/ imports nothing else in src/); the agent hands it to the tool.
 */

import { ipLiteralOf } from "./ssrf.js";
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
  /**
   * A redirect to another origin (scheme, host or port): "follow" it (the user's own search
   * provider) or "report" it unfollowed as the result's `redirect` (web_fetch, whose URL the
   * permission rules judge). Same-origin redirects are followed either way.
   */
  crossOrigin: "follow" | "report";
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
  | {
      ok: false;
      message: string;
      /** Set when a cross-origin redirect was reported, not followed (`crossOrigin: "report"`). */
      redirect?: { from: string; to: string; status: number };
    };

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
    const unfit = unfitUrl(current);
    if (unfit !== null) {
      return { ok: false, message: hop === 0 ? unfit : `${unfit} (redirected to ${current.href})` };
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
      let next: URL;
      try {
        next = new URL(res.location, current);
      } catch {
        return { ok: false, message: `a redirect to an invalid URL: ${res.location}` };
      }
      if (next.origin !== origin && opts.crossOrigin === "report") {
        return reportRedirect(current, next, res.status, opts);
      }
      current = next;
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

/** Why a URL is never fetched whatever its address (scheme, credentials), or null. */
function unfitUrl(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https URLs are fetched, not ${url.protocol}`;
  }
  if (url.username || url.password) return "URLs with a user name or password are not fetched";
  return null;
}

/**
 * A cross-origin redirect handed back unfollowed. Targets the guard would refuse anyway (another
 * scheme, credentials, a refused IP literal) are refused here with the guard's reason, so the
 * model is not sent after them; a host name is left unresolved (see the file comment).
 */
async function reportRedirect(
  from: URL,
  to: URL,
  status: number,
  opts: GuardedGetOptions,
): Promise<GuardedGetResult> {
  const unfit = unfitUrl(to);
  if (unfit !== null) return { ok: false, message: `${unfit} (redirected to ${to.href})` };
  if (ipLiteralOf(to.hostname) !== null) {
    // A literal is checked without any lookup.
    const target = await checkTarget({
      hostname: to.hostname,
      allowPrivateNetworks: opts.allowPrivateNetworks,
      allowLoopback: opts.allowLoopback,
      who: "web_fetch",
    });
    if (!target.ok) return { ok: false, message: `${target.message} (redirected to ${to.href})` };
  }
  return {
    ok: false,
    message: `redirected (HTTP ${status}) to another origin: ${to.href}; not followed`,
    redirect: { from: from.href, to: to.href, status },
  };
}
