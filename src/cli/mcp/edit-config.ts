/**
 * Adding and removing server definitions in the settings files `keel mcp add/remove` write:
 * project → `.mcp.json` (shared, Claude Code's file), local → `.keel/settings.local.json`,
 * user → `$KEEL_HOME/settings.json`. Other keys in the file are kept; files are written 0600.
 */
import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { jsonProblemText } from "../../base/index.js";
import { settingsJsonText } from "../../hooks/config/parse.js";

/** Where `keel mcp add` writes. */
export type McpWriteScope = "project" | "local" | "user";

/** The file a scope writes to. */
export function scopeFile(scope: McpWriteScope, projectDir: string, keelHome: string): string {
  if (scope === "project") return join(projectDir, ".mcp.json");
  if (scope === "local") return join(projectDir, ".keel", "settings.local.json");
  return join(keelHome, "settings.json");
}

/** Reads a JSON object file; missing is `{}`; anything else unreadable is an error message. */
async function readObject(path: string): Promise<Record<string, unknown> | string> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return {};
  }
  // Rewritten as plain JSON, a file's comments would be lost: such a file is edited by hand.
  if (settingsJsonText(text) !== text.replace(/^\uFEFF/, "")) {
    return `${path}: has comments, which rewriting it would lose; not changed (edit it by hand)`;
  }
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return `${path}: the top level is not a JSON object; not changed`;
  } catch (err) {
    const said = jsonProblemText(text);
    const why =
      said !== null
        ? `invalid JSON: ${said}`
        : `not valid JSON (${err instanceof Error ? err.message : String(err)})`;
    return `${path}: ${why}; not changed`;
  }
}

async function writeObject(path: string, value: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

/** Sets `mcpServers[name]` in the file. Returns an error message, or null when written. */
export async function addServer(
  path: string,
  name: string,
  definition: Record<string, unknown>,
): Promise<string | null> {
  const doc = await readObject(path);
  if (typeof doc === "string") return doc;
  const servers = doc.mcpServers;
  const map =
    typeof servers === "object" && servers !== null && !Array.isArray(servers)
      ? (servers as Record<string, unknown>)
      : {};
  await writeObject(path, { ...doc, mcpServers: { ...map, [name]: definition } });
  return null;
}

/** Removes `mcpServers[name]` from the file. Returns whether it was there (or an error message). */
export async function removeServer(path: string, name: string): Promise<boolean | string> {
  const doc = await readObject(path);
  if (typeof doc === "string") return doc;
  const servers = doc.mcpServers;
  if (typeof servers !== "object" || servers === null || !(name in servers)) return false;
  const { [name]: _, ...rest } = servers as Record<string, unknown>;
  await writeObject(path, { ...doc, mcpServers: rest });
  return true;
}
