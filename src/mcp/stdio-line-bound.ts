/**
 * A bound on one line of a stdio MCP server's output. The SDK's reader joins every chunk to what
 * it holds until a newline arrives, copying it whole each time: a server that writes hundreds of
 * megabytes without a newline keeps Keel's event loop copying for minutes (timers, signals and
 * the session's end all wait) while its memory grows. Past the bound the server is treated as
 * broken: its processes are ended and its output is no longer read, so the connection fails.
 */
import type { Readable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { endProcessTree } from "./process-tree.js";

/** The longest line (one JSON-RPC message) read from a stdio server. */
export const MAX_STDIO_LINE_BYTES = 16 * 1024 * 1024;

/** What the SDK's stdio transport keeps once started (its `_process` is not public API). */
interface StartedStdio {
  pid: number | null;
  _process?: { stdout?: Readable | null };
}

/**
 * Watches the transport's stdout once it starts and calls `onOverflow` (then ends the server)
 * when a line passes `maxBytes`. Counting is linear: each chunk is scanned once for its last
 * newline. If the SDK stops exposing its process, nothing is watched (a test notices).
 */
export function boundStdioLines(
  transport: Transport,
  onOverflow: (why: string) => void,
  maxBytes = MAX_STDIO_LINE_BYTES,
): void {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const started = transport as unknown as StartedStdio;
    const stdout = started._process?.stdout;
    if (!stdout) return;
    let pending = 0;
    const watch = (chunk: Buffer) => {
      const nl = chunk.lastIndexOf(10);
      pending = nl === -1 ? pending + chunk.length : chunk.length - nl - 1;
      if (pending <= maxBytes) return;
      stdout.off("data", watch);
      onOverflow(`it wrote more than ${maxBytes / (1024 * 1024)} MB without a newline`);
      const pid = started.pid;
      stdout.destroy();
      if (typeof pid === "number") endProcessTree(pid);
    };
    // Before the SDK's own listener, so the chunk that passes the bound is the last one copied.
    stdout.prependListener("data", watch);
  };
}
