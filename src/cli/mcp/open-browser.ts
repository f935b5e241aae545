/**
 * Opens a URL in the user's browser, for `keel mcp login --open` only (never by default:
 * headless machines and CI have no browser, and the printed URL works everywhere). The URL is
 * one argv element to the platform's opener, never shell text; failures are only reported.
 */
import { spawn } from "node:child_process";

/** Starts the opener detached; resolves false when it could not be started. */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["rundll32", ["url.dll,FileProtocolHandler", url]]
        : ["xdg-open", [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
