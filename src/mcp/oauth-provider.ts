/**
 * Keel's `OAuthClientProvider` for the MCP SDK's OAuth client (the SDK does discovery, dynamic
 * client registration, PKCE, the code exchange and refreshing; this keeps what it hands over in
 * the server's file, oauth-store.ts). Two modes:
 * - "session" (`keel run`, the TUI): stored tokens are sent and refreshed; a server that needs a
 *   new authorization makes the connection fail with `NeedsLoginError` at once — a session never
 *   opens a browser or waits for one, and never registers a client on its own.
 * - "login" (`keel mcp login`): a fresh authorization through a loopback redirect; the stored
 *   tokens are not offered (they may be what the user is replacing) and are overwritten only
 *   when new ones arrive.
 */
import { randomBytes } from "node:crypto";
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { oauthUrlProblem } from "./oauth-fetch.js";
import type { OAuthStore } from "./oauth-store.js";

/** The server wants an authorization Keel does not have: `keel mcp login NAME` gets one. */
export class NeedsLoginError extends Error {
  override name = "NeedsLoginError";
  constructor(readonly server: string) {
    super(`server ${server} needs login: run \`keel mcp login ${server}\``);
  }
}

/** Options of a provider. */
export type KeelOAuthOptions =
  | { mode: "session"; server: string; store: OAuthStore }
  | {
      mode: "login";
      server: string;
      store: OAuthStore;
      /** The loopback listener's callback URL. */
      redirectUrl: string;
      /** Shows the authorization URL to the user (already checked). */
      onAuthorizationUrl: (url: URL) => void | Promise<void>;
    };

/** The redirect URL a session names when it has no registration (never visited: it cannot log in). */
const PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback";

export class KeelOAuthProvider implements OAuthClientProvider {
  readonly #o: KeelOAuthOptions;
  #verifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** Tokens saved during this login (login mode offers no others). */
  #fresh: OAuthTokens | undefined;
  /** The redirect URL a session's registration names (read once from the file). */
  #sessionRedirect = PLACEHOLDER_REDIRECT;

  constructor(o: KeelOAuthOptions) {
    this.#o = o;
  }

  /** Reads the stored registration's redirect URL (sessions; before the SDK asks for it). */
  async prepare(): Promise<void> {
    if (this.#o.mode !== "session") return;
    const uris = (await this.#o.store.read()).clientInformation?.redirect_uris;
    if (Array.isArray(uris) && typeof uris[0] === "string") this.#sessionRedirect = uris[0];
  }

  get redirectUrl(): string {
    return this.#o.mode === "login" ? this.#o.redirectUrl : this.#sessionRedirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Keel",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      // A CLI cannot keep a client secret: PKCE protects the code exchange (RFC 8252).
      token_endpoint_auth_method: "none",
    };
  }

  /** The `state` sent with the authorization request; the callback must carry it back. */
  state(): string {
    this.#state ??= randomBytes(16).toString("hex");
    return this.#state;
  }

  /** The state of this login, once the SDK asked for one. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const info = (await this.#o.store.read()).clientInformation as
      | OAuthClientInformationMixed
      | undefined;
    if (this.#o.mode === "session") {
      // Registering is the first step of a login: a session stops here instead.
      if (!info) throw new NeedsLoginError(this.#o.server);
      return info;
    }
    // A registration names its redirect URL; one for another port would be refused by the
    // authorization server, so a login on a new port registers again.
    const uris = (info as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    return Array.isArray(uris) && uris.includes(this.redirectUrl) ? info : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.#o.store.update((r) => ({
      ...r,
      clientInformation: info as unknown as Record<string, unknown>,
    }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.#o.mode === "login") return this.#fresh;
    return (await this.#o.store.read()).tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (this.#o.mode === "login") this.#fresh = tokens;
    // Stored as received: the SDK's `issuer` stamp binds them to their authorization server.
    await this.#o.store.update((r) => ({
      ...r,
      tokens: tokens as unknown as Record<string, unknown>,
    }));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.#o.mode === "session") throw new NeedsLoginError(this.#o.server);
    const problem = oauthUrlProblem(url, new URL(this.#o.store.serverUrl));
    if (problem !== null) {
      throw new Error(`the authorization URL ${url.origin}${url.pathname} is refused: ${problem}`);
    }
    await this.#o.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    this.#verifier = verifier;
    if (this.#o.mode === "login") {
      await this.#o.store.update((r) => ({ ...r, codeVerifier: verifier }));
    }
  }

  async codeVerifier(): Promise<string> {
    const v = this.#verifier ?? (await this.#o.store.read()).codeVerifier;
    if (v === undefined) throw new Error("no PKCE code verifier saved for this login");
    return v;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    if (scope === "discovery") {
      this.#discovery = undefined;
      return;
    }
    if (scope === "all" || scope === "tokens") this.#fresh = undefined;
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
    await this.#o.store.update((r) => {
      const next = { ...r };
      if (scope === "all" || scope === "client") delete next.clientInformation;
      if (scope === "all" || scope === "tokens") delete next.tokens;
      if (scope === "all" || scope === "verifier") delete next.codeVerifier;
      return next;
    });
  }

  // Kept for the provider's life only: between a login's two steps, and within one session.
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
}
