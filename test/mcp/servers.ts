/** Server definitions for tests: the reference servers from npm and the fault server fixture. */
import { resolve } from "node:path";
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
