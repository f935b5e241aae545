/**
 * `keel doctor`'s view of managed settings (docs/security.md "Managed settings"): which file is the policy, whether it
 * reads, and whether the user can edit it (a policy the user can rewrite binds nobody — worth
 * saying, though Keel still applies it).
 */
import { accessSync, constants, statSync } from "node:fs";
import {
  DEFAULT_MANAGED_SETTINGS,
  isRecord,
  jsonProblemText,
  readConfigTextSync,
  resolveManagedSettingsPath,
} from "../../base/index.js";
import { parseSettingsJson, settingsJsonText } from "../../hooks/index.js";
import type { Finding } from "./doctor-checks.js";

/** Findings for the managed settings file. */
export function checkManagedSettings(
  env: NodeJS.ProcessEnv,
  display: (path: string) => string,
): Finding[] {
  const check = "managed";
  const path = resolveManagedSettingsPath(env);
  const out: Finding[] = [];
  const named = env.KEEL_MANAGED_SETTINGS;
  if (named !== undefined && named !== "" && path === DEFAULT_MANAGED_SETTINGS) {
    out.push({
      status: "warn",
      check,
      detail: `KEEL_MANAGED_SETTINGS is ignored: ${DEFAULT_MANAGED_SETTINGS} exists and is the policy`,
    });
  }
  const { content, error } = readConfigTextSync(path);
  if (content === null && error === undefined) {
    return [...out, { status: "skip", check, detail: `no managed settings (${display(path)})` }];
  }
  if (error !== undefined || content === null) {
    return [
      ...out,
      { status: "fail", check, detail: `${display(path)}: ${error}; every tool call is denied` },
    ];
  }
  let json: unknown;
  try {
    json = parseSettingsJson(content);
  } catch {
    const said = jsonProblemText(settingsJsonText(content)) ?? "not valid JSON";
    return [
      ...out,
      {
        status: "fail",
        check,
        detail: `${display(path)}: invalid JSON: ${said}; keel run refuses to start and every tool call is denied`,
      },
    ];
  }
  const said: string[] = [];
  if (isRecord(json)) {
    const perms = isRecord(json.permissions) ? json.permissions : {};
    for (const kind of ["deny", "ask", "allow"]) {
      const list = perms[kind];
      if (Array.isArray(list) && list.length > 0) said.push(`${list.length} ${kind}`);
    }
    if (isRecord(json.hooks)) said.push(`hooks for ${Object.keys(json.hooks).join(", ")}`);
    if (json.allowedMcpServers !== undefined) said.push("MCP allow list");
    if (json.deniedMcpServers !== undefined) said.push("MCP deny list");
    if (json.disableAllHooks === true) said.push("disableAllHooks");
    if (json.allowManagedHooksOnly === true) said.push("allowManagedHooksOnly");
  }
  out.push({
    status: "ok",
    check,
    detail: `${display(path)} applies, beating user and project settings${said.length > 0 ? `: ${said.join(", ")}` : ""}`,
  });
  const writable = userCanEdit(path);
  if (writable !== null)
    out.push({ status: "warn", check, detail: `${display(path)} ${writable}` });
  return out;
}

/** Why the user could rewrite the policy, or null. */
function userCanEdit(path: string): string | null {
  try {
    const st = statSync(path);
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0 && st.uid === uid) {
      return "is owned by you: a policy its user can rewrite does not bind them (make root its owner)";
    }
    accessSync(path, constants.W_OK);
    return "is writable by you: a policy its user can rewrite does not bind them";
  } catch {
    return null;
  }
}
