/** What the setup form collects, and the checks it makes (shared by the form and its hook). */

/** What the form collects. */
export interface SetupValues {
  apiKey: string;
  baseUrl: string;
}

/** Shows "sk-…abcd": never the whole key. */
export function maskKey(key: string): string {
  const k = key.trim();
  if (k.length === 0) return "";
  if (k.length <= 8) return "•".repeat(k.length);
  return `${k.slice(0, 3)}…${k.slice(-4)}`;
}

/** Checks a base URL the way the client will use it. */
export function checkBaseUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return "the base URL must be http(s)";
    return null;
  } catch {
    return "not a URL (e.g. https://api.deepseek.com)";
  }
}
