/**
 * Short, fixed-width renderings of numbers and tool/hook facts for the TUI's cards and rows.
 */
import { sanitize, sanitizeLine } from "./sanitize.js";

/** "850ms", "1.2s", "2m05s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "0ms";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const total = Math.floor(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}m${String(s).padStart(2, "0")}s`;
}

/** "$0.0012", "$1.23": enough digits that cheap cached sessions do not all read "$0.00". */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd)}`;
}

/** A ratio in [0, 1] as "93%", or "–" when there is nothing to divide. */
export function formatRatio(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return "–";
  return `${Math.round(ratio * 100)}%`;
}

/** "1.2k", "3.4M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Cuts one line to `width` columns with an ellipsis. */
export function clip(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 1) return chars.slice(0, Math.max(0, width)).join("");
  return `${chars.slice(0, width - 1).join("")}…`;
}

const KEY_FIELDS = ["command", "cmd", "path", "file_path", "pattern", "url", "query", "prompt"];

/** The one argument that identifies a tool call: the command for shell, the path for file tools. */
export function keyArgument(input: Record<string, unknown>): string {
  for (const field of KEY_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && value !== "") return sanitizeLine(value);
  }
  for (const value of Object.values(input)) {
    if (typeof value === "string" && value !== "") return sanitizeLine(value);
  }
  return "";
}

/** The first `lines` non-empty lines of a tool result, sanitized, plus how many were left out. */
export function preview(content: string, lines: number): { lines: string[]; more: number } {
  const all = sanitize(content)
    .split("\n")
    .map((l) => l.trimEnd());
  while (all.length > 0 && all[all.length - 1] === "") all.pop();
  const nonEmptyStart = all.findIndex((l) => l !== "");
  const body = nonEmptyStart < 0 ? [] : all.slice(nonEmptyStart);
  return { lines: body.slice(0, lines), more: Math.max(0, body.length - lines) };
}

/** A hook command for a one-line row: home and long absolute paths shortened. */
export function shortenCommand(command: string, opts: { home?: string } = {}): string {
  let text = sanitizeLine(command);
  if (opts.home && opts.home.length > 1) text = text.split(opts.home).join("~");
  // /very/long/path/to/script.sh -> …/to/script.sh
  return text.replace(/(?:\/[^\s/]+){4,}\/([^\s/]+)/g, (match) => {
    const parts = match.split("/");
    return `…/${parts.slice(-2).join("/")}`;
  });
}
