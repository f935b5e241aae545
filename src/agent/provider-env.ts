/**
 * Keel's own provider key stays Keel's: the environment given to tools (shell), hooks and MCP
 * servers has `DEEPSEEK_API_KEY` removed, any other variable holding the same key (alone or as
 * part of its value), and a `KEEL_BASE_URL` with credentials in it (`user:pass@`, `?key=`), unless
 * the user's own settings (`$KEEL_HOME/settings.json`, never a project file) say
 * `{"env": {"passProviderKey": true}}`. A model or a cloned repository's hook cannot read it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildChildEnv, resolveKeelHome, SECRET_VARIABLES } from "../base/index.js";
import { parseSettingsJson } from "../hooks/index.js";

/** Variables that carry Keel's provider key. */
export const PROVIDER_KEY_VARIABLES: readonly string[] = SECRET_VARIABLES;

/** Whether the user-level settings pass the provider key to child processes. */
export function providerKeyPassed(keelHome: string): boolean {
  try {
    const value: unknown = parseSettingsJson(readFileSync(join(keelHome, "settings.json"), "utf8"));
    const env = (value as { env?: { passProviderKey?: unknown } } | null)?.env;
    return env?.passProviderKey === true;
  } catch {
    return false;
  }
}

/**
 * The environment for processes Keel starts on the model's or a hook's behalf: the one builder
 * (base/child-env.ts) with the user's choice about the key: `env` without the secret variables
 * (and without any variable whose value holds `apiKey`, the key Keel actually uses, or a base
 * URL's credentials), unless the user passes the key on purpose.
 */
export function childProcessEnv(
  env: NodeJS.ProcessEnv,
  opts: { keelHome?: string; apiKey?: string | null } = {},
): NodeJS.ProcessEnv {
  const keelHome = opts.keelHome ?? resolveKeelHome(env);
  return buildChildEnv(env, {
    passSecrets: providerKeyPassed(keelHome),
    ...(opts.apiKey !== undefined ? { apiKey: opts.apiKey } : {}),
  });
}
