/**
 * `${VAR}` and `${VAR:-default}` expansion in MCP server definitions, as Claude Code does it for
 * `.mcp.json`: in command, args, env values, url and header values. A variable that is unset and
 * has no default is reported by name (the server is not started with a half-filled value).
 */
import type { McpServerConfig } from "./config.js";

/** A string with its variables filled in, or the names that were missing. */
export type Expanded = { ok: true; value: string } | { ok: false; missing: string[] };

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands every `${VAR}` / `${VAR:-default}` in `text` from `env`. */
export function expandVariables(text: string, env: NodeJS.ProcessEnv): Expanded {
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (whole, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return missing.length === 0 ? { ok: true, value } : { ok: false, missing };
}

/** A definition with every variable filled in, or why it cannot be started. */
export type ResolvedConfig = { ok: true; config: McpServerConfig } | { ok: false; error: string };

/** Expands the variables of every expandable field of a definition. */
export function resolveServerConfig(
  config: McpServerConfig,
  env: NodeJS.ProcessEnv,
): ResolvedConfig {
  const missing = new Set<string>();
  const fill = (text: string): string => {
    const r = expandVariables(text, env);
    if (r.ok) return r.value;
    for (const name of r.missing) missing.add(name);
    return text;
  };
  const fillMap = (map: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(map).map(([k, v]) => [k, fill(v)]));
  const config2: McpServerConfig =
    config.type === "stdio"
      ? {
          type: "stdio",
          command: fill(config.command),
          args: config.args.map(fill),
          env: fillMap(config.env),
          ...(config.cwd !== undefined ? { cwd: fill(config.cwd) } : {}),
        }
      : { type: config.type, url: fill(config.url), headers: fillMap(config.headers) };
  if (missing.size > 0) {
    return {
      ok: false,
      error: `missing environment variable${missing.size === 1 ? "" : "s"} ${[...missing].join(", ")}`,
    };
  }
  return { ok: true, config: config2 };
}
