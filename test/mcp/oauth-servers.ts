/**
 * A loopback OAuth world for tests: an authorization server (the SDK's `mcpAuthRouter`: metadata,
 * dynamic client registration, /authorize, /token with PKCE and refresh) on one 127.0.0.1 port
 * and an MCP server on another that answers 401 without a valid bearer token and points at the
 * authorization server through its protected resource metadata (RFC 9728). Its one tool,
 * `whoami`, says which client's token it was called with.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type {
  OAuthClientInformationFull,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";

interface Issued {
  clientId: string;
  expiresAt: number;
}

/** The authorization server's state, open to the test. */
export class TestAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<
    string,
    { client: OAuthClientInformationFull; params: AuthorizationParams }
  >();
  readonly access = new Map<string, Issued>();
  readonly refresh = new Map<string, string>();
  /** Counts, for the test's questions. */
  registrations = 0;
  refreshes = 0;
  verified: string[] = [];

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: async (id) => this.clients.get(id),
      registerClient: async (client) => {
        this.registrations++;
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    // Express's response (its types are not installed): the two methods used here.
    res: { status(code: number): { send(body: string): void }; redirect(url: string): void },
  ) {
    // The "user" approves at once: the test plays a browser that follows this redirect.
    if (!client.redirect_uris.includes(params.redirectUri)) {
      res.status(400).send("unregistered redirect_uri");
      return;
    }
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state !== undefined) target.searchParams.set("state", params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const c = this.codes.get(code);
    if (!c) throw new Error("unknown code");
    return c.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    const c = this.codes.get(code);
    if (!c || c.client.client_id !== client.client_id) throw new Error("bad code");
    this.codes.delete(code);
    return this.#issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    if (this.refresh.get(refreshToken) !== client.client_id) throw new Error("bad refresh token");
    this.refresh.delete(refreshToken);
    this.refreshes++;
    return this.#issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const t = this.access.get(token);
    // InvalidTokenError: a 401 with WWW-Authenticate (any other error is a 500).
    if (!t || t.expiresAt < Date.now()) throw new InvalidTokenError("invalid or expired token");
    this.verified.push(token);
    return { token, clientId: t.clientId, scopes: [], expiresAt: Math.floor(t.expiresAt / 1000) };
  }

  /** Every access token issued so far stops working (the next call must refresh). */
  expireAll(): void {
    for (const t of this.access.values()) t.expiresAt = 0;
  }

  #issue(clientId: string): OAuthTokens {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    this.access.set(access, { clientId, expiresAt: Date.now() + 3600_000 });
    this.refresh.set(refresh, clientId);
    return { access_token: access, token_type: "bearer", expires_in: 3600, refresh_token: refresh };
  }
}

/** An express app (the SDK's, which parses JSON bodies); express's own types are not installed. */
interface App {
  use(...handlers: unknown[]): void;
  get(path: string, ...handlers: unknown[]): void;
  post(path: string, ...handlers: unknown[]): void;
  listen(port: number, host: string, ready: () => void): Server;
}

function newApp(): App {
  return createMcpExpressApp({ host: "127.0.0.1" }) as unknown as App;
}

function listen(
  app: App | ((req: IncomingMessage, res: ServerResponse) => void),
): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const ready = () => resolve({ server, port: (server.address() as AddressInfo).port });
    const server =
      typeof app === "function"
        ? createServer(app).listen(0, "127.0.0.1", ready)
        : app.listen(0, "127.0.0.1", ready);
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** An MCP server's express handler: stateless Streamable HTTP with the `whoami` tool. */
function mcpHandler() {
  return async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    const mcp = new McpServer({ name: "secure", version: "1.0.0" });
    mcp.registerTool(
      "whoami",
      { description: "who is calling", annotations: { readOnlyHint: true } },
      async (extra) => ({
        content: [
          { type: "text", text: `called with a token of client ${extra.authInfo?.clientId}` },
        ],
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
}

/** The authorization server and the protected MCP server, both on 127.0.0.1. */
export interface OAuthWorld {
  auth: TestAuthProvider;
  /** The MCP server's URL (`…/mcp`). */
  mcpUrl: string;
  authUrl: string;
  stop(): Promise<void>;
}

export async function startOAuthWorld(): Promise<OAuthWorld> {
  const auth = new TestAuthProvider();
  const authApp = newApp();
  const a = await listen(authApp);
  const issuerUrl = new URL(`http://127.0.0.1:${a.port}/`);
  authApp.use(mcpAuthRouter({ provider: auth, issuerUrl }));

  const mcpApp = newApp();
  const m = await listen(mcpApp);
  const mcpUrl = new URL(`http://127.0.0.1:${m.port}/mcp`);
  mcpApp.use(
    mcpAuthMetadataRouter({
      oauthMetadata: createOAuthMetadata({ provider: auth, issuerUrl }),
      resourceServerUrl: mcpUrl,
    }),
  );
  const bearer = requireBearerAuth({
    verifier: auth,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
  });
  mcpApp.post("/mcp", bearer, mcpHandler());
  mcpApp.get("/mcp", bearer, (_req: IncomingMessage, res: ServerResponse) =>
    res.writeHead(405).end(),
  );
  return {
    auth,
    mcpUrl: mcpUrl.href,
    authUrl: issuerUrl.href,
    stop: async () => {
      await close(m.server);
      await close(a.server);
    },
  };
}

/**
 * An MCP server on 127.0.0.1 that answers 401 and whose protected resource metadata names
 * `authorizationServer` (an address the guard must refuse). `hits` counts requests it saw.
 */
export async function startHostileServer(
  authorizationServer: string,
): Promise<{ url: string; hits: string[]; stop(): Promise<void> }> {
  const hits: string[] = [];
  let port = 0;
  const s = await listen((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    hits.push(`${req.method} ${path}`);
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ resource: url, authorization_servers: [authorizationServer] }));
      return;
    }
    res.writeHead(401, {
      "content-type": "application/json",
      "www-authenticate": `Bearer error="invalid_token", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    });
    res.end(JSON.stringify({ error: "invalid_token" }));
  });
  port = s.port;
  const url = `http://127.0.0.1:${port}/mcp`;
  return { url, hits, stop: () => close(s.server) };
}
