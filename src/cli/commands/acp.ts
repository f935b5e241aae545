/**
 * `keel acp`: Keel as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, and any
 * other ACP client). The server and the ACP SDK are imported only when the command runs, so
 * other commands' start-up does not load them (src/cli/main.ts loads this file only for `acp`).
 */
import type { Command } from "commander";

/** Shown after `keel acp --help`. */
export const ACP_HELP = `
Speaks ACP (v1) as JSON-RPC on stdin/stdout; configure your editor to run \`keel acp\` as an
agent server. The editor answers permission requests; hooks, permission rules and the mode still
decide first (a PreToolUse hook's deny is never put to the editor). Modes: default, acceptEdits,
plan. MCP servers the editor passes join the configured ones for that session. What is
supported and what is not: \`keel docs acp\`, docs/acp.md.`;

/** Registers `keel acp`. */
export function register(program: Command): void {
  program
    .command("acp")
    .description("Run as an Agent Client Protocol agent over stdio (for editors such as Zed)")
    .option(
      "--harvest",
      "extract plan state from the model's reasoning (sent to the editor as plan updates)",
    )
    .addHelpText("after", ACP_HELP)
    .action(async (raw: { harvest?: boolean }) => {
      const { serveAcp } = await import("../acp/server.js");
      await serveAcp({ harvest: raw.harvest === true });
    });
}
