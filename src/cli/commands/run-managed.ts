/**
 * `keel run` fails closed on managed settings (docs/security.md "Managed settings"): a managed file that exists but is
 * malformed is a policy Keel cannot apply, so a headless run stops before the first request,
 * naming the file, line and field, rather than run without the administrator's rules. Loaded
 * only when the file exists, so a machine without one pays a single stat.
 */
import { stat } from "node:fs/promises";
import { loadPermissionRules } from "../../agent/index.js";
import { resolveHome, resolveManagedSettingsPath } from "../../base/index.js";
import { loadHooks, resolveHookPaths } from "../../hooks/index.js";
import { readManagedMcpPolicy } from "../../mcp/index.js";

/** Why the run must not start (null: it may), and notices to print if it does. */
export async function managedSettingsCheck(opts: {
  projectDir: string;
  keelHome: string;
}): Promise<{ refusal: string | null; notices: string[] }> {
  const path = resolveManagedSettingsPath();
  const found = await stat(path).catch((err: NodeJS.ErrnoException) => err);
  if (found instanceof Error && found.code === "ENOENT") return { refusal: null, notices: [] };
  const paths = { ...resolveHookPaths({ projectDir: opts.projectDir, keelHome: opts.keelHome }) };
  paths.managedSettings = path;
  const errors: string[] = [];
  const loaded = await loadHooks(paths);
  for (const p of loaded.problems) {
    if (p.path !== path || p.severity !== "error") continue;
    const at =
      p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ""}` : "";
    errors.push(`${path}${at}${p.field ? ` (${p.field})` : ""}: ${p.message}`);
  }
  const rules = loadPermissionRules({ ...paths, homeDir: resolveHome() });
  for (const p of rules.problems)
    if (p.startsWith(`${path}:`) && errors.length === 0) errors.push(p);
  const mcp = await readManagedMcpPolicy(path);
  for (const p of mcp?.problems ?? []) errors.push(p);
  if (errors.length > 0) {
    return {
      refusal: [
        "the managed settings file cannot be applied, so keel run stops before asking the model (it does not run without the administrator's policy):",
        ...[...new Set(errors)].map((e) => `  ${e}`),
      ].join("\n"),
      notices: [],
    };
  }
  const dropped = loaded.hooks.filter((h) =>
    h.problems.some((p) => p.message.includes('"allowManagedHooksOnly": true')),
  ).length;
  const notices =
    dropped > 0
      ? [
          `${dropped} hook${dropped === 1 ? "" : "s"} outside ${path} ${dropped === 1 ? "is" : "are"} not run: it says "allowManagedHooksOnly": true`,
        ]
      : [];
  return { refusal: null, notices };
}
