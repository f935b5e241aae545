/**
 * `/mcp` in the TUI: the session's MCP servers (state, tools), `reload` (the config read again:
 * changed tool lists and newly added or trusted servers join the prefix — one deliberate cache
 * miss), and `trust` (trust the project's MCP servers, then reload).
 */
import type { AgentMcp } from "../../agent/index.js";
import type { McpServerStatus } from "../../mcp/index.js";
import { trustedMcpConfig } from "../mcp/session-servers.js";
import { trustProjectMcp } from "../mcp/trust-cli.js";

/** Where `/mcp` prints. */
export interface McpSlashIO {
  print(block: { title?: string; lines: string[] }): void;
  notice(level: "info" | "warn" | "error", text: string): void;
}

/** Runs `/mcp [list|reload|trust]`. */
export async function runMcpSlash(
  args: readonly string[],
  ctx: { mcp: AgentMcp | undefined; projectDir: string; keelHome: string; io: McpSlashIO },
): Promise<void> {
  const { mcp, io } = ctx;
  const sub = args[0] ?? "list";
  if (!mcp) {
    io.print({
      title: "MCP",
      lines: [
        "No MCP servers in this session (.mcp.json, .keel/settings*.json, ~/.keel/settings.json).",
        "Add one with: keel mcp add NAME -- COMMAND ARGS…  (then /clear to start a new session)",
      ],
    });
    return;
  }
  if (sub === "trust") {
    const lines = await trustProjectMcp(ctx.projectDir, ctx.keelHome);
    if (lines.length === 0) io.notice("info", "no project MCP servers to trust");
    else io.print({ title: "MCP trust", lines });
  }
  if (sub === "reload" || sub === "trust") {
    const config = await trustedMcpConfig({ projectDir: ctx.projectDir, keelHome: ctx.keelHome });
    const { added, removed } = await mcp.reload({ servers: config.run });
    io.notice(
      "info",
      added.length > 0
        ? `MCP tools added: ${added.join(", ")} (the tool list changed: the next request is one deliberate cache miss)`
        : removed.length > 0
          ? "no MCP tools added"
          : "MCP tools unchanged",
    );
    if (removed.length > 0) {
      io.notice(
        "info",
        `MCP tools no longer offered: ${removed.join(", ")} (still declared, so the cache holds; a call to one answers that it is gone)`,
      );
    }
  } else if (sub !== "list") {
    io.notice("error", `unknown /mcp subcommand "${sub}" — list, reload, trust`);
    return;
  }
  io.print({ title: "MCP servers", lines: mcp.statuses().flatMap(statusLines) });
}

function statusLines(s: McpServerStatus): string[] {
  const state =
    s.auth === "needs-login"
      ? `needs login: run keel mcp login ${s.name} in a shell, then /mcp reload`
      : s.state === "connected"
        ? `connected, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}${s.auth === "logged-in" ? ", logged in" : ""}`
        : s.state === "untrusted"
          ? "untrusted: not started (/mcp trust or keel hooks trust)"
          : `${s.state === "timeout" ? "timed out" : s.state}${s.error ? `: ${s.error}` : ""}`;
  const pending = s.pendingReload ? "  (changed: /mcp reload)" : "";
  return [`  ${s.name}  ${s.transport}  ${state}${pending}`, ...s.tools.map((t) => `      ${t}`)];
}
