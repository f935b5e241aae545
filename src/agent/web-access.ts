/**
 * The web tools' access from the user's own settings (`~/.keel/settings.json`, `$KEEL_HOME`'s):
 * `webFetch` (caps, and whether loopback or private networks are reachable) and `webSearch`
 * (the provider). Only the user-level file counts: a repository that wants in must not open
 * loopback to the model or point searches at its own server, so project files are not read
 * for these keys at all. Every request goes through the http hooks' SSRF guard (guardedGet).
 */
import { join } from "node:path";
import { z } from "zod";
import { isRecord, readConfigTextSync } from "../base/index.js";
import { guardedGet } from "../hooks/index.js";
import type { WebAccess, WebSearchHit, WebSearchOutcome } from "../tools/index.js";

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const MAX_HITS = 10;

const webFetchSettings = z.strictObject({
  allowLoopback: z.boolean().optional(),
  allowPrivateNetworks: z.boolean().optional(),
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .optional(),
  timeoutMs: z.number().int().min(1000).max(300_000).optional(),
});

const webSearchSettings = z.strictObject({
  /** The provider's URL with `{query}` where the URL-encoded query goes. */
  url: z.string().regex(/^https?:\/\/.*\{query\}/, "an http(s) URL containing {query}"),
  /** Request headers; `${VAR}` takes the variable from Keel's environment (an API key). */
  headers: z.record(z.string(), z.string()).optional(),
  /** Where the result list sits in the JSON answer (`web.results`); found by common names if unset. */
  resultsPath: z.string().optional(),
  timeoutMs: z.number().int().min(1000).max(120_000).optional(),
});

/** The web tools' access and any problem with the settings that shape it. */
export interface WebSetup {
  web: WebAccess;
  problems: string[];
}

/** Reads the user's settings and builds the access web_fetch and web_search get. */
export function webAccessFor(keelHome: string, env: NodeJS.ProcessEnv = process.env): WebSetup {
  const file = join(keelHome, "settings.json");
  const problems: string[] = [];
  const raw = readSettings(file, problems);
  const fetchCfg = parsePart(webFetchSettings, raw.webFetch, file, "webFetch", problems) ?? {};
  const searchCfg = parsePart(webSearchSettings, raw.webSearch, file, "webSearch", problems);
  const guard = {
    allowPrivateNetworks: fetchCfg.allowPrivateNetworks === true,
    maxRedirects: MAX_REDIRECTS,
  };
  const web: WebAccess = {
    get: (url, { signal }) =>
      guardedGet(url, {
        ...guard,
        allowLoopback: fetchCfg.allowLoopback === true,
        maxBytes: fetchCfg.maxBytes ?? DEFAULT_MAX_BYTES,
        timeoutMs: fetchCfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        // The pipeline's rules judged this URL's host only: another origin goes back to the
        // model as a new URL to fetch, which the rules then judge (docs/security.md, 6b).
        crossOrigin: "report",
        signal,
      }),
  };
  if (searchCfg) {
    const headers = expandHeaders(searchCfg.headers ?? {}, env, file, problems);
    web.search = async (query, { signal }) => {
      // The provider is the user's: loopback is open to it, as to the user's http hooks.
      const got = await guardedGet(searchCfg.url.replaceAll("{query}", encodeURIComponent(query)), {
        ...guard,
        allowLoopback: true,
        maxBytes: DEFAULT_MAX_BYTES,
        timeoutMs: searchCfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        // The provider is the user's choice, and its key goes only to its own origin.
        crossOrigin: "follow",
        headers,
        signal,
      });
      if (!got.ok)
        return { ok: false, message: `the search provider was not reached: ${got.message}` };
      if (got.status < 200 || got.status >= 300) {
        return { ok: false, message: `the search provider answered HTTP ${got.status}` };
      }
      return hitsOf(got.body, searchCfg.resultsPath);
    };
  }
  return { web, problems };
}

function readSettings(file: string, problems: string[]): Record<string, unknown> {
  const { content, error } = readConfigTextSync(file);
  if (content === null) {
    if (error) problems.push(`${file}: ${error}`);
    return {};
  }
  try {
    const value: unknown = JSON.parse(content);
    return isRecord(value) ? value : {};
  } catch {
    // The hooks engine reports a file that is not JSON (with its position); nothing to add.
    return {};
  }
}

function parsePart<T>(
  schema: z.ZodType<T>,
  value: unknown,
  file: string,
  key: string,
  problems: string[],
): T | undefined {
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = [key, ...(issue?.path ?? []).map(String)].join(".");
  problems.push(`${file}: ${at}: ${issue?.message ?? "invalid"}; ${key} is ignored`);
  return undefined;
}

function expandHeaders(
  headers: Record<string, string>,
  env: NodeJS.ProcessEnv,
  file: string,
  problems: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value
      .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => {
        const got = env[v];
        if (got === undefined)
          problems.push(`${file}: webSearch.headers.${name}: \${${v}} is not set`);
        return got ?? "";
      })
      .replace(/[\r\n\0]/g, "");
  }
  return out;
}

/** The result list of a provider's JSON answer, as title/url/snippet. */
function hitsOf(body: string, resultsPath: string | undefined): WebSearchOutcome {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, message: "the search provider's answer is not JSON" };
  }
  const list = resultsPath
    ? at(value, resultsPath)
    : [
        value,
        ...["results", "items", "web.results", "organic_results", "data"].map((p) => at(value, p)),
      ].find(Array.isArray);
  if (!Array.isArray(list)) {
    return {
      ok: false,
      message: `no result list in the search provider's answer${resultsPath ? ` at ${resultsPath}` : ""} (set webSearch.resultsPath)`,
    };
  }
  const hits: WebSearchHit[] = [];
  for (const item of list.slice(0, MAX_HITS)) {
    if (!isRecord(item)) continue;
    const url = firstString(item, ["url", "link", "href"]);
    if (!url) continue;
    hits.push({
      url,
      title: firstString(item, ["title", "name"]) ?? "",
      snippet: firstString(item, ["snippet", "description", "content", "body", "text"]) ?? "",
    });
  }
  return { ok: true, hits };
}

function at(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split(".")) {
    if (!isRecord(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function firstString(item: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = item[k];
    if (typeof v === "string" && v !== "") return v;
  }
  return undefined;
}
