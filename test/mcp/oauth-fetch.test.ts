/**
 * The OAuth client's SSRF guard (src/mcp/oauth-fetch.ts) for MCP servers that are not on
 * loopback, with names resolved by a fake resolver (no network): an authorization server the
 * metadata names may not be plain http, loopback, a private network or a metadata address.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { OAuthEndpointRefused, oauthFetch, oauthUrlProblem } from "../../src/mcp/oauth-fetch.js";

/** The MCP server's name resolves to a public address; every other name to `address`. */
const resolveTo = (address: string) => async (hostname: string) => [
  hostname === "mcp.example.test"
    ? { address: "93.184.216.34", family: 4 }
    : { address, family: address.includes(":") ? 6 : 4 },
];

describe("oauthFetch for a public MCP server", () => {
  const server = "https://mcp.example.test/mcp";

  for (const [what, url, address, reason] of [
    ["plain http", "http://auth.example.test/token", "93.184.216.34", "plain http"],
    ["a name resolving to loopback", "https://auth.example.test/token", "127.0.0.1", "loopback"],
    [
      "a name resolving to a private address",
      "https://auth.example.test/token",
      "10.0.0.5",
      "private",
    ],
    ["the metadata address", "https://169.254.169.254/latest", "169.254.169.254", "metadata"],
    [
      "a user name in the URL",
      "https://user:pw@auth.example.test/token",
      "93.184.216.34",
      "user name",
    ],
  ] as const) {
    it(`refuses ${what}`, async () => {
      const f = oauthFetch(server, { resolver: resolveTo(address) });
      const err = await f(url, { method: "POST", body: "x=1" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OAuthEndpointRefused);
      expect(String(err)).toContain(reason);
      // The query and the credentials of a refused URL are not repeated.
      expect(String(err)).not.toContain("pw@");
    });
  }

  it("an http authorization URL is refused for a server not on loopback, allowed when both are", () => {
    expect(oauthUrlProblem(new URL("http://127.0.0.1:9/authorize"), new URL(server))).toContain(
      "plain http",
    );
    expect(
      oauthUrlProblem(new URL("http://127.0.0.1:9/authorize"), new URL("http://localhost:8/mcp")),
    ).toBeNull();
    expect(oauthUrlProblem(new URL("javascript:alert(1)"), new URL(server))).toContain("scheme");
  });
});

describe("oauthFetch for a loopback MCP server", () => {
  it("reaches an authorization server on loopback over http, without the server's own headers", async () => {
    const as = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            method: req.method,
            body,
            type: req.headers["content-type"],
            authorization: req.headers.authorization ?? null,
          }),
        );
      });
    });
    await new Promise<void>((r) => as.listen(0, "127.0.0.1", r));
    try {
      const port = (as.address() as AddressInfo).port;
      const f = oauthFetch("http://127.0.0.1:1/mcp", {
        serverHeaders: { Authorization: "Bearer for-the-mcp-server" },
      });
      const res = await f(`http://localhost:${port}/token`, {
        method: "POST",
        // As the SDK sends it: the server definition's headers merged into the OAuth request.
        headers: { authorization: "Bearer for-the-mcp-server" },
        body: new URLSearchParams({ grant_type: "refresh_token" }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        method: "POST",
        body: "grant_type=refresh_token",
        type: "application/x-www-form-urlencoded",
        authorization: null,
      });
    } finally {
      as.close();
    }
  });
});
