/**
 * Effort levels and what each model makes of them. A level is asked for with `--effort`,
 * `/effort` or config.json's `effort`; data/models.json says per model what its endpoint takes
 * (`effort.reasoningEffort`: the `reasoning_effort` values it accepts; `effort.thinking`: it
 * takes DeepSeek's `thinking: {type}` switch). A model without an `effort` entry takes none:
 * the caller says so instead of sending a field the endpoint may reject or ignore.
 *
 * The level reported to hooks is the one sent, after mapping to what the model takes (Claude
 * Code reports "the active effort level … after any silent downgrade for the selected model";
 * Keel's mapping is not silent: `note` says what changed).
 */
import { EFFORT_LEVELS, type EffortLevel } from "./effort-levels.js";
import { loadModelTable } from "./pricing.js";

export { EFFORT_LEVELS, type EffortLevel, isEffortLevel } from "./effort-levels.js";

/** What a model's `effort` entry in data/models.json declares. */
export interface ModelEffort {
  /** `reasoning_effort` values the endpoint accepts, in any order. */
  reasoningEffort: readonly EffortLevel[];
  /** The endpoint takes `thinking: {type: enabled|disabled}` (DeepSeek V4): `none` turns it off. */
  thinking?: boolean;
}

/** The request fields an effort level becomes (after the messages: never the cached prefix). */
export interface EffortRequest {
  thinking?: "enabled" | "disabled";
  reasoningEffort?: EffortLevel;
}

/** An effort level resolved for one model. */
export type EffortResolution =
  | {
      ok: true;
      /** The level the model applies: what hooks are told. */
      level: EffortLevel;
      request: EffortRequest;
      /** Set when the level differs from the one asked for, saying why. */
      note?: string;
    }
  | { ok: false; error: string };

/** The effort entry of `model` in data/models.json, or null when it declares none. */
export function modelEffort(model: string): ModelEffort | null {
  const loaded = loadModelTable();
  if (!loaded.ok) return null;
  return loaded.table.models[model]?.effort ?? null;
}

const rank = (level: EffortLevel) => EFFORT_LEVELS.indexOf(level);

/**
 * What `level` becomes for `model`: the lowest level the model takes at or above it (the
 * highest it takes when none is above), as DeepSeek maps low and medium to high itself.
 */
export function resolveEffort(
  model: string,
  level: EffortLevel,
  declared: ModelEffort | null = modelEffort(model),
): EffortResolution {
  if (declared === null) {
    return {
      ok: false,
      error: `model ${model} takes no effort level (data/models.json declares no "effort" for it)`,
    };
  }
  if (level === "none") {
    if (declared.thinking) return { ok: true, level, request: { thinking: "disabled" } };
    if (declared.reasoningEffort.includes("none")) {
      return { ok: true, level, request: { reasoningEffort: "none" } };
    }
    return { ok: false, error: `model ${model} cannot turn its reasoning off (effort none)` };
  }
  const levels = declared.reasoningEffort
    .filter((l) => l !== "none")
    .sort((a, b) => rank(a) - rank(b));
  const applied = levels.find((l) => rank(l) >= rank(level)) ?? levels[levels.length - 1];
  if (applied === undefined) {
    return { ok: false, error: `model ${model} declares no reasoning_effort level above none` };
  }
  const request: EffortRequest = {
    ...(declared.thinking ? { thinking: "enabled" as const } : {}),
    reasoningEffort: applied,
  };
  if (applied === level) return { ok: true, level, request };
  return {
    ok: true,
    level: applied,
    request,
    note: `effort ${level}: ${model} takes ${levels.join(", ")}${declared.thinking ? " (or none)" : ""}; using ${applied}`,
  };
}
