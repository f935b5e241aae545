/**
 * LLM configuration: `$KEEL_HOME/config.json` (validated; other keys in the file are left alone),
 * overridden by DEEPSEEK_API_KEY, KEEL_BASE_URL and KEEL_MODEL. Loading never throws: a malformed
 * file is an error value naming the path and the field.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

/** The default endpoint. */
export const DEFAULT_BASE_URL = "https://api.deepseek.com";
/** How long a model stream may send no event before the turn ends (5 minutes). */
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;
/** The default model (also the default cheap model for hooks and harvest). */
export const DEFAULT_MODEL = "deepseek-v4-flash";

const httpUrl = z.url({ protocol: /^https?$/ });

const fileSchema = z.object({
  apiKey: z.string().min(1).optional(),
  baseUrl: httpUrl.optional(),
  model: z.string().min(1).optional(),
  cheapModel: z.string().min(1).optional(),
  /** Milliseconds a model stream may send no event (keep-alives do not count). */
  streamIdleMs: z
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .optional(),
});

/** The LLM fields of config.json. */
export type LlmConfigFile = z.infer<typeof fileSchema>;

/** Where a setting came from. */
export type ConfigSource = "env" | "file" | "default";

/** The resolved configuration. */
export interface LlmConfig {
  /** Null when no key is configured anywhere. */
  apiKey: string | null;
  baseUrl: string;
  model: string;
  cheapModel: string;
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
  | { ok: false; error: string; path: string };

/** Options of `loadLlmConfig`. */
export interface LoadLlmConfigOptions {
  keelHome: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Reads config.json and the environment. Never throws. */
export async function loadLlmConfig(options: LoadLlmConfigOptions): Promise<LlmConfigResult> {
  const path = join(options.keelHome, "config.json");
  const file = await readConfigFile(path);
  if (!file.ok) return { ok: false, error: file.error, path };
  const parsed = fileSchema.safeParse(file.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || "(top level)";
    return { ok: false, error: `${path}: ${field}: ${issue?.message ?? "invalid"}`, path };
  }
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
  if (envBaseUrl !== undefined && !httpUrl.safeParse(envBaseUrl).success) {
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
  const base = z.record(z.string(), z.unknown()).safeParse(current.value ?? {});
  if (!base.success) return { ok: false, error: `${path}: expected a JSON object` };
  const next: Record<string, unknown> = { ...base.data };
  for (const [key, value] of Object.entries(options.values)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  const checked = fileSchema.safeParse(next);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { ok: false, error: `${issue?.path.map(String).join(".")}: ${issue?.message}` };
  }
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
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if (err instanceof Error && "code" in err && err.code === "ENOENT")
      return { ok: true, value: {} };
    return { ok: false, error: `${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return {
      ok: false,
      error: `${path}: not valid JSON (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}
