/** Server definitions for tests: the reference servers from npm and the fault server fixture. */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpServerEntry } from "../../src/mcp/index.js";

const ROOT = resolve(__dirname, "../..");

/** Path of the fault server script. */
export const FAULT_SERVER = resolve(ROOT, "test/fixtures/mcp/fault-server.mjs");
/** Path of @modelcontextprotocol/server-everything's launcher. */
export const EVERYTHING = resolve(
  ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
/** Path of @modelcontextprotocol/server-filesystem's entry point. */
export const FILESYSTEM = resolve(
  ROOT,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

const LOOPBACK = resolve(ROOT, "test/fixtures/mcp/loopback.mjs");

/** A stdio entry running `node script args…`. */
export function stdioEntry(name: string, script: string, args: string[] = []): McpServerEntry {
  return {
    name,
    file: "test",
    scope: "user",
    config: { type: "stdio", command: process.execPath, args: [script, ...args], env: {} },
  };
}

/** The fault server in one of its modes. */
export function faultEntry(name: string, mode: string): McpServerEntry {
  return stdioEntry(name, FAULT_SERVER, [mode]);
}

/** A server-everything HTTP transport ("streamableHttp" or "sse") on 127.0.0.1; kill it after use. */
export async function startEverythingHttp(
  transport: "streamableHttp" | "sse",
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ["--import", pathToFileURL(LOOPBACK).href, EVERYTHING, transport],
    { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const m = /KEEL_TEST_PORT=(\d+)/.exec(stderr);
      if (m) resolvePort(Number(m[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`server-everything exited (${code}): ${stderr}`)),
    );
  });
  const path = transport === "sse" ? "/sse" : "/mcp";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await gone;
    },
  };
}
