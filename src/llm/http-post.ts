/**
 * One HTTP(S) POST whose body is a list of byte chunks, written to the socket as they are.
 *
 * The client used to send through the global fetch, which copies every chunk of a streamed body
 * into a fresh buffer and passes it through several web-stream layers (bench/peers: ~570 MB
 * allocated over a 200-turn session, most of it that copy, and a peak RSS 1.5× Reasonix's).
 * node:http writes each message's cached bytes (request-body.ts) straight to the socket in one
 * gathered write, so a request allocates almost nothing however long the conversation is.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { RequestBodyChunks } from "./request-body.js";

/** A response as the client reads it. */
export interface PostResponse {
  status: number;
  statusText: string;
  /** A header's value, or null. */
  header(name: string): string | null;
  /** The body's bytes as they arrive; throws on a network error or an abort. */
  body: AsyncIterator<Uint8Array>;
  /** The whole body as text (error responses). */
  text(): Promise<string>;
  /**
   * After a complete answer: reads what is left (the end of the chunked body) so the connection
   * goes back to the pool before the next request; a server that keeps sending is cut off.
   */
  finish(): Promise<void>;
  /** Stops reading and closes the connection (the server may still be sending). */
  cancel(): void;
}

/** Sends `body` to `url`; rejects on a network error or when `signal` aborts. */
export type Post = (
  url: string,
  headers: Record<string, string>,
  body: RequestBodyChunks,
  signal: AbortSignal,
) => Promise<PostResponse>;

/**
 * The default transport: node:http or node:https. Static imports on purpose: the CLI bundle
 * turns them into getters loading each built-in on first use (scripts/build-cli.mjs), while
 * a dynamic `import()` of node:http would build its ESM facade, which loads undici.
 */
export const httpPost: Post = async (url, headers, body, signal) => {
  const target = new URL(url);
  const request = target.protocol === "https:" ? httpsRequest : httpRequest;
  signal.throwIfAborted();
  return new Promise<PostResponse>((resolve, reject) => {
    const req = request(target, { method: "POST", headers, signal });
    // Stays attached: errors after the response (an abort mid-stream) reach the body iterator.
    req.on("error", reject);
    req.on("response", (res) => resolve(response(res)));
    // Corked: the header and every chunk leave in one gathered write, none of them copied.
    req.cork();
    for (const chunk of body.chunks) req.write(chunk);
    req.end();
    req.uncork();
  });
};

function response(res: IncomingMessage): PostResponse {
  // The iterator reports errors once reading starts; this keeps one before that from crashing.
  res.on("error", () => {});
  const it: AsyncIterator<Uint8Array> = res[Symbol.asyncIterator]();
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? "",
    header: (name) => {
      const v = res.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
    body: it,
    text: async () => {
      const parts: Uint8Array[] = [];
      for (let r = await it.next(); !r.done; r = await it.next()) parts.push(r.value);
      return Buffer.concat(parts).toString("utf8");
    },
    finish: () => drain(res, it),
    cancel: () => {
      if (!res.complete) res.destroy();
    },
  };
}

/** How long a server may take to end its body after the answer's last event. */
const DRAIN_MS = 1000;

async function drain(res: IncomingMessage, it: AsyncIterator<Uint8Array>): Promise<void> {
  const guard = setTimeout(() => res.destroy(), DRAIN_MS);
  guard.unref();
  try {
    while (!(await it.next()).done) {}
  } catch {
    // A connection that fails now has already delivered everything the client needed.
  } finally {
    clearTimeout(guard);
  }
}
