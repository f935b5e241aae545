/**
 * Where an HTTP MCP server's OAuth state lives: one file per server URL,
 * `$KEEL_HOME/mcp-auth/<sha256 of the URL>.json`, mode 0600 in a 0700 folder, written atomically
 * (temp file, rename). It holds what the SDK's OAuth client hands Keel to keep (its dynamic
 * client registration, the tokens, a login's PKCE verifier) exactly as received: the SDK stamps
 * them with the authorization server they belong to and checks that stamp when reading them back.
 * Nothing here is ever printed; errors name the file, never its content.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256Hex } from "../base/index.js";

/** The file's content. Unknown fields are kept as they are. */
export interface OAuthRecord {
  version: 1;
  /** The server URL the file belongs to (the hash in the name is of this). */
  serverUrl: string;
  clientInformation?: Record<string, unknown>;
  tokens?: Record<string, unknown>;
  codeVerifier?: string;
}

/** The folder under KEEL_HOME. */
export function oauthDirOf(keelHome: string): string {
  return join(keelHome, "mcp-auth");
}

/** The URL as the file name hashes it: parsed and re-serialized, so spelling variants agree. */
export function canonicalServerUrl(url: string): string {
  return new URL(url).href;
}

/** The file for a server URL. */
export function oauthFile(dir: string, serverUrl: string): string {
  return join(dir, `${sha256Hex(canonicalServerUrl(serverUrl))}.json`);
}

/** One server's OAuth file. Reads go to disk every time: a login in another terminal counts. */
export class OAuthStore {
  readonly file: string;
  readonly serverUrl: string;
  readonly #dir: string;

  constructor(dir: string, serverUrl: string) {
    this.#dir = dir;
    this.serverUrl = canonicalServerUrl(serverUrl);
    this.file = oauthFile(dir, serverUrl);
  }

  /** The record, or an empty one when there is no file. Throws (naming the file) when damaged. */
  async read(): Promise<OAuthRecord> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return this.#empty();
      throw new Error(`${this.file}: cannot be read (${(err as NodeJS.ErrnoException).code})`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${this.file}: not valid JSON; delete it with keel mcp logout`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.file}: not a JSON object; delete it with keel mcp logout`);
    }
    const r = parsed as Record<string, unknown>;
    // A file copied over from another server's URL would hand this server its tokens.
    if (r.serverUrl !== this.serverUrl) {
      throw new Error(`${this.file}: field serverUrl does not name ${this.serverUrl}`);
    }
    return {
      version: 1,
      serverUrl: this.serverUrl,
      ...(isObject(r.clientInformation) ? { clientInformation: r.clientInformation } : {}),
      ...(isObject(r.tokens) ? { tokens: r.tokens } : {}),
      ...(typeof r.codeVerifier === "string" ? { codeVerifier: r.codeVerifier } : {}),
    };
  }

  /** Changes the record (read, change, write). */
  async update(change: (r: OAuthRecord) => OAuthRecord): Promise<void> {
    const next = change(await this.read());
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    // mkdir's mode applies only to a folder it creates: an existing one is tightened too.
    await chmod(this.#dir, 0o700);
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, this.file);
  }

  /** Deletes the file. True when there was one. */
  async remove(): Promise<boolean> {
    try {
      await rm(this.file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  #empty(): OAuthRecord {
    return { version: 1, serverUrl: this.serverUrl };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether tokens are stored for the server (an unreadable file counts as none). */
export async function hasStoredTokens(dir: string, serverUrl: string): Promise<boolean> {
  try {
    return (await new OAuthStore(dir, serverUrl).read()).tokens !== undefined;
  } catch {
    return false;
  }
}
