/**
 * The connecting half of the SSRF guard: POST to an address that has already been checked. The
 * socket is opened to that IP literal (so nothing resolves the name again); the URL's host goes
 * into the Host header and, for https, the TLS server name, so virtual hosts and certificate
 * checks behave as if the name had been used.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";

/** One POST to a pre-checked address. */
export interface ConnectRequest {
  /** The checked IP address to connect to: used as is, never re-resolved. */
  address: string;
  family: 4 | 6;
  /** The URL as configured (scheme, host for Host/SNI, port, path and query). */
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** Default POST (http hooks); web_fetch GETs. */
  method?: "GET" | "POST";
  signal: AbortSignal;
  /** Response bytes kept; the rest is discarded and `truncated` set. */
  maxResponseBytes: number;
}

/** What came back. Redirects are never followed: a 3xx is returned like any other status. */
export interface ConnectResponse {
  status: number;
  /** The Location header of a 3xx, for the warning. */
  location: string | null;
  /** The Content-Type header, when there is one. */
  contentType?: string;
  body: string;
  truncated: boolean;
}

/** Opens the connection and performs the POST. Rejects on network errors and on abort. */
export type Connector = (req: ConnectRequest) => Promise<ConnectResponse>;

function readCapped(
  res: IncomingMessage,
  max: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    res.on("data", (chunk: Buffer) => {
      if (truncated) return;
      const room = max - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, Math.max(room, 0)));
        size = max;
        truncated = true;
        // Stop reading: a hook endpoint that streams forever must not hold the engine.
        resolve({ body: Buffer.concat(chunks), truncated });
        res.destroy();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    res.on("end", () => resolve({ body: Buffer.concat(chunks), truncated }));
    res.on("error", reject);
    // After "end" or the truncating resolve this is a no-op; before, the peer hung up mid-body.
    res.on("close", () => reject(new Error("connection closed before the response ended")));
  });
}

/** The default connector: node:http / node:https to the checked address. */
export const nodeConnector: Connector = (req) =>
  new Promise<ConnectResponse>((resolve, reject) => {
    const https = req.url.protocol === "https:";
    const hostname = req.url.hostname.replace(/^\[|\]$/g, "");
    const body = Buffer.from(req.body, "utf8");
    const options = {
      host: req.address,
      family: req.family,
      port: req.url.port ? Number(req.url.port) : https ? 443 : 80,
      path: `${req.url.pathname}${req.url.search}`,
      method: req.method ?? "POST",
      headers:
        req.method === "GET"
          ? { ...req.headers, host: req.url.host }
          : { ...req.headers, host: req.url.host, "content-length": String(body.length) },
      signal: req.signal,
      // One connection per hook run: a pooled socket could outlive the checked address.
      agent: false,
      ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
    };
    let outgoing: ReturnType<typeof httpRequest>;
    try {
      outgoing = (https ? httpsRequest : httpRequest)(options, (res) => {
        readCapped(res, req.maxResponseBytes).then(({ body: data, truncated }) => {
          const location = res.headers.location;
          const type = res.headers["content-type"];
          resolve({
            status: res.statusCode ?? 0,
            location: typeof location === "string" ? location : null,
            ...(typeof type === "string" ? { contentType: type } : {}),
            body: data.toString("utf8"),
            truncated,
          });
        }, reject);
      });
    } catch (err) {
      // Invalid header values throw synchronously.
      reject(err);
      return;
    }
    outgoing.on("error", reject);
    outgoing.end(req.method === "GET" ? undefined : body);
  });
