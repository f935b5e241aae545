/**
 * A pasted image path as an `@path` mention. Dropping a file on a terminal pastes its path —
 * quoted, with `\ ` escapes, or as a file:// URL — and the agent attaches `@path` mentions of
 * images (src/agent/images.ts), so the paste becomes one. A path with spaces (macOS names
 * screenshots "Screenshot … at 10.00.00.png") becomes `@"…"`.
 */
import { homedir } from "node:os";
import { IMAGE_NAME } from "../../base/index.js";

/** `@path ` for a paste that is one absolute image path, or null (the paste goes in as typed). */
export function pastedImageMention(pasted: string): string | null {
  let path = pasted.trim();
  if (path === "" || path.includes("\n")) return null;
  const quoted = /^(['"])(.*)\1$/.exec(path);
  if (quoted) path = quoted[2] ?? "";
  else path = path.replace(/\\(.)/g, "$1");
  if (path.startsWith("file://")) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return null;
    }
  }
  if (path.startsWith("~/")) path = `${homedir()}${path.slice(1)}`;
  if (!path.startsWith("/") || !IMAGE_NAME.test(path) || path.includes('"')) return null;
  return /\s/.test(path) ? `@"${path}" ` : `@${path} `;
}
