/**
 * The fetch the MCP SDK's OAuth client uses, guarded against SSRF. Where the authorization server
 * lives is not the user's choice: the MCP server's metadata names it (RFC 9728 discovery, done by
 * the SDK), and the SDK then GETs its metadata and POSTs to its registration and token endpoints.
 * A hostile or compromised server could point those at the cloud metadata endpoint or a service
 * on the user's network, so every request that leaves the MCP server's own origin goes through
 * the http hooks' guard (src/hooks/ssrf*.ts):
 * - https only; plain http only to a loopback host when the MCP server itself is on loopback;
 * - no user name or password in the URL;
 * - the host resolved once, every address checked (metadata, unspecified, multicast, reserved:
 *   never; loopback: only when the MCP server is on loopback; private networks: only when the
 *   MCP server itself is on one), and the connection made to the checked address;
 * - redirects are not followed here: the SDK follows same-origin ones through this fetch again;
 * - the server definition's own `headers` (the SDK merges them into its OAuth requests too) are
 *   not sent: a static `Authorization` for the MCP server is no business of another host.
 * Requests to the MCP server's own origin (its MCP traffic and its /.well-known metadata) go
 * through plain fetch: the user named that URL.
 */
import { checkTarget, classifyAddress, nodeConnector, type Resolver } from "../hooks/index.js";

/** What the SDK calls (its FetchLike). */
export type OAuthFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Refused by the guard: the message names the URL (query hidden) and the reason. */
export class OAuthEndpointRefused extends Error {
  override name = "OAuthEndpointRefused";
}

const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 30_000;
const PRIVATE = new Set(["private", "link-local", "cgnat", "unique-local"]);
const NULL_BODY = new Set([101, 204, 205, 304]);

/** Whether a URL hostname is loopback by its spelling (no DNS: `localhost` counts). */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === "localhost") return true;
  return classifyAddress(hostname.replace(/^\[|\]$/g, "")) === "loopback";
}

/**
 * Why Keel will not use (or show the user) an OAuth URL the server's metadata named, or null.
 * The scheme part of the guard, shared by the fetch and the authorization URL that is printed.
 */
export function oauthUrlProblem(url: URL, server: URL): string | null {
  if (url.username || url.password) return "a URL with a user name or password";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname) && isLoopbackHost(server.hostname))
    return null;
  return url.protocol === "http:"
    ? "plain http (https is required unless both the MCP server and this endpoint are on loopback)"
    : `scheme ${url.protocol} (https is required)`;
}

/** The URL without its query and fragment, for messages. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** The method, headers and body sent for one OAuth request: GET or POST, a text or form body,
 *  and the request's headers except the server definition's own. */
function requestParts(
  url: URL,
  init: RequestInit,
  own: ReadonlyMap<string, string>,
): { method: "GET" | "POST"; headers: Record<string, string>; body: string } {
  const method = (init.method ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "POST") {
    throw new OAuthEndpointRefused(`refused OAuth request to ${shown(url)}: method ${method}`);
  }
  const body = init.body;
  if (
    body !== undefined &&
    body !== null &&
    typeof body !== "string" &&
    !(body instanceof URLSearchParams)
  ) {
    throw new OAuthEndpointRefused(`refused OAuth request to ${shown(url)}: unsupported body`);
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    if (own.get(key) !== value) headers[key] = value;
  });
  if (body instanceof URLSearchParams && headers["content-type"] === undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  return { method, headers, body: body === undefined || body === null ? "" : String(body) };
}

/** The connector's answer as the Response the SDK reads (only the headers it uses). */
function responseOf(res: Awaited<ReturnType<typeof nodeConnector>>, url: URL): Response {
  if (res.truncated) {
    throw new Error(`${shown(url)} answered more than ${MAX_ANSWER_BYTES} bytes`);
  }
  if (res.status < 200 || res.status > 599) {
    throw new Error(`${shown(url)} answered with HTTP status ${res.status}`);
  }
  const out = new Headers();
  if (res.contentType) out.set("content-type", res.contentType);
  if (res.location) out.set("location", res.location);
  return new Response(NULL_BODY.has(res.status) ? null : res.body, {
    status: res.status,
    headers: out,
  });
}

/** A fetch for the OAuth client of the MCP server at `serverUrl`. */
export function oauthFetch(
  serverUrl: string,
  opts: { resolver?: Resolver; serverHeaders?: Record<string, string> } = {},
): OAuthFetch {
  const server = new URL(serverUrl);
  const own = new Map(
    Object.entries(opts.serverHeaders ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const),
  );
  let serverPrivate: Promise<boolean> | undefined;
  // Whether the MCP server itself sits on a private network (then its authorization server may).
  const onPrivateNetwork = () => {
    serverPrivate ??= checkTarget({
      hostname: server.hostname,
      allowPrivateNetworks: true,
      allowLoopback: true,
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    }).then((t) => t.ok && PRIVATE.has(classifyAddress(t.address)));
    return serverPrivate;
  };
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.origin === server.origin) return fetch(input, init);
    const problem = oauthUrlProblem(url, server);
    if (problem !== null) {
      throw new OAuthEndpointRefused(`refused OAuth request to ${shown(url)}: ${problem}`);
    }
    const target = await checkTarget({
      hostname: url.hostname,
      allowPrivateNetworks: await onPrivateNetwork(),
      allowLoopback: isLoopbackHost(server.hostname),
      who: "the OAuth client of an MCP server not on loopback",
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
    });
    if (!target.ok) {
      throw new OAuthEndpointRefused(`refused OAuth request to ${shown(url)}: ${target.message}`);
    }
    const { method, headers, body } = requestParts(url, init, own);
    const signal = init.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS)])
      : AbortSignal.timeout(TIMEOUT_MS);
    const res = await nodeConnector({
      address: target.address,
      family: target.family,
      url,
      method,
      headers,
      body,
      signal,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    return responseOf(res, url);
  };
}
