/**
 * LLM configuration: `$KEEL_HOME/config.json` (validated; other keys in the file are left alone),
 * overridden by DEEPSEEK_API_KEY, KEEL_BASE_URL and KEEL_MODEL. Loading never throws: a malformed
 * file is an error value naming the path and the field.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { EFFORT_LEVELS, type EffortLevel, isEffortLevel } from "./effort-levels.js";

export { EFFORT_LEVELS, type EffortLevel, isEffortLevel } from "./effort-levels.js";

/** The default endpoint. */
export const DEFAULT_BASE_URL = "https://api.deepseek.com";
/** How long a model stream may send no event before the turn ends (5 minutes). */
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;
/** The default model (also the default cheap model for hooks and harvest). */
export const DEFAULT_MODEL = "deepseek-v4-flash";

/** The LLM fields of config.json. */
export interface LlmConfigFile {
  apiKey?: string;
  baseUrl?: string;
  model?: string;
  cheapModel?: string;
  /** The effort level to ask models for (`--effort` overrides it). */
  effort?: EffortLevel;
  /** Milliseconds a model stream may send no event (keep-alives do not count). */
  streamIdleMs?: number;
}

const MAX_STREAM_IDLE_MS = 24 * 3_600_000;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Checks the LLM fields of a parsed config.json (other keys are left alone). Written out rather
 * than a zod schema: the TUI reads this file before its first frame, and zod is the largest
 * module that would load for it.
 */
function checkConfigFile(
  value: unknown,
): { ok: true; data: LlmConfigFile } | { ok: false; field: string; message: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, field: "(top level)", message: "expected a JSON object" };
  }
  const v = value as Record<string, unknown>;
  const data: LlmConfigFile = {};
  for (const key of ["apiKey", "model", "cheapModel"] as const) {
    const x = v[key];
    if (x === undefined) continue;
    if (typeof x !== "string" || x === "") {
      return { ok: false, field: key, message: "expected a non-empty string" };
    }
    data[key] = x;
  }
  if (v.baseUrl !== undefined) {
    if (typeof v.baseUrl !== "string" || !isHttpUrl(v.baseUrl)) {
      return { ok: false, field: "baseUrl", message: "expected an http:// or https:// URL" };
    }
    data.baseUrl = v.baseUrl;
  }
  if (v.effort !== undefined) {
    if (typeof v.effort !== "string" || !isEffortLevel(v.effort)) {
      return { ok: false, field: "effort", message: `expected one of ${EFFORT_LEVELS.join(", ")}` };
    }
    data.effort = v.effort;
  }
  if (v.streamIdleMs !== undefined) {
    const ms = v.streamIdleMs;
    if (
      typeof ms !== "number" ||
      !Number.isSafeInteger(ms) ||
      ms < 1000 ||
      ms > MAX_STREAM_IDLE_MS
    ) {
      return {
        ok: false,
        field: "streamIdleMs",
        message: `expected a whole number of milliseconds from 1000 to ${MAX_STREAM_IDLE_MS}`,
      };
    }
    data.streamIdleMs = ms;
  }
  return { ok: true, data };
}

/** Where a setting came from. */
export type ConfigSource = "env" | "file" | "default";

/** The resolved configuration. */
export interface LlmConfig {
  /** Null when no key is configured anywhere. */
  apiKey: string | null;
  baseUrl: string;
  model: string;
  cheapModel: string;
  /** config.json's effort level, or null (none asked: the endpoint's default). */
  effort: EffortLevel | null;
  /** Idle limit for model streams: KEEL_STREAM_IDLE_MS, else config.json, else the default. */
  streamIdleMs: number;
  /** The config file consulted (it may not exist). */
  path: string;
  sources: {
    apiKey: ConfigSource | "none";
    baseUrl: ConfigSource;
    model: ConfigSource;
    cheapModel: ConfigSource;
  };
}

/** Result of `loadLlmConfig`. */
export type LlmConfigResult =
  | { ok: true; config: LlmConfig }
  | {
      ok: false;
      error: string;
      path: string;
      /** The file is not JSON (the CLI says where, in one line). */
      invalidJson?: true;
    };

/** Options of `loadLlmConfig`. */
export interface LoadLlmConfigOptions {
  keelHome: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Reads config.json and the environment. Never throws. */
export async function loadLlmConfig(options: LoadLlmConfigOptions): Promise<LlmConfigResult> {
  const path = join(options.keelHome, "config.json");
  const file = await readConfigFile(path);
  if (!file.ok) {
    return {
      ok: false,
      error: file.error,
      path,
      ...(file.invalidJson ? { invalidJson: true } : {}),
    };
  }
  const parsed = checkConfigFile(file.value);
  if (!parsed.ok) return { ok: false, error: `${path}: ${parsed.field}: ${parsed.message}`, path };
  const f = parsed.data;
  const env = (name: string) => {
    const value = options.env[name]?.trim();
    return value ? value : undefined;
  };
  const pick = (envValue: string | undefined, fileValue: string | undefined, fallback: string) =>
    envValue !== undefined
      ? { value: envValue, source: "env" as const }
      : fileValue !== undefined
        ? { value: fileValue, source: "file" as const }
        : { value: fallback, source: "default" as const };
  const envBaseUrl = env("KEEL_BASE_URL");
  if (envBaseUrl !== undefined && !isHttpUrl(envBaseUrl)) {
    return {
      ok: false,
      error: `KEEL_BASE_URL: expected an http:// or https:// URL, got "${envBaseUrl}"`,
      path,
    };
  }
  const baseUrl = pick(envBaseUrl, f.baseUrl, DEFAULT_BASE_URL);
  const model = pick(env("KEEL_MODEL"), f.model, DEFAULT_MODEL);
  const cheapModel = pick(undefined, f.cheapModel, DEFAULT_MODEL);
  const envIdle = env("KEEL_STREAM_IDLE_MS");
  const idleFromEnv = envIdle === undefined ? undefined : Number(envIdle);
  if (idleFromEnv !== undefined && !(Number.isInteger(idleFromEnv) && idleFromEnv >= 1)) {
    return {
      ok: false,
      error: `KEEL_STREAM_IDLE_MS: expected a positive whole number of milliseconds, got "${envIdle}"`,
      path,
    };
  }
  const envKey = env("DEEPSEEK_API_KEY");
  const apiKey = envKey ?? f.apiKey ?? null;
  return {
    ok: true,
    config: {
      apiKey,
      baseUrl: baseUrl.value.replace(/\/+$/, ""),
      model: model.value,
      cheapModel: cheapModel.value,
      effort: f.effort ?? null,
      streamIdleMs: idleFromEnv ?? f.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS,
      path,
      sources: {
        apiKey: envKey !== undefined ? "env" : f.apiKey !== undefined ? "file" : "none",
        baseUrl: baseUrl.source,
        model: model.source,
        cheapModel: cheapModel.source,
      },
    },
  };
}

/** Where the base URL came from, as a user finds it again: the variable or the file's field.
 *  Its value is not repeated (a URL can carry credentials). */
export function baseUrlOrigin(config: LlmConfig): string {
  if (config.sources.baseUrl === "env") return "KEEL_BASE_URL";
  if (config.sources.baseUrl === "file") return `"baseUrl" in ${config.path}`;
  return 'the default; set KEEL_BASE_URL or "baseUrl" in config.json';
}

/** Options of `saveLlmConfig`. */
export interface SaveLlmConfigOptions {
  keelHome: string;
  /** Fields to set; `null` removes a field. Other keys of the file are kept. */
  values: { [K in keyof LlmConfigFile]?: LlmConfigFile[K] | null };
}

/** Writes config.json (mode 0600: it may hold the API key). Never throws. */
export async function saveLlmConfig(
  options: SaveLlmConfigOptions,
): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  const path = join(options.keelHome, "config.json");
  const current = await readConfigFile(path);
  if (!current.ok) return { ok: false, error: current.error };
  const base = current.value ?? {};
  if (typeof base !== "object" || base === null || Array.isArray(base)) {
    return { ok: false, error: `${path}: expected a JSON object` };
  }
  const next: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(options.values)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  const checked = checkConfigFile(next);
  if (!checked.ok) return { ok: false, error: `${checked.field}: ${checked.message}` };
  try {
    await mkdir(options.keelHome, { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    await chmod(tmp, 0o600);
    await rename(tmp, path);
    return { ok: true, path };
  } catch (err) {
    return { ok: false, error: `${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

async function readConfigFile(
  path: string,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string; invalidJson?: true }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "ENOENT")
      return { ok: true, value: {} };
    return { ok: false, error: `${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  // Windows editors save a byte-order mark; JSON.parse refuses it as an "unexpected token".
  text = text.replace(/^\uFEFF/, "");
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return {
      ok: false,
      error: `${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
      invalidJson: true,
    };
  }
}
