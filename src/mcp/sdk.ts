/**
 * The MCP SDK, loaded on first use: it costs a few hundred milliseconds of module evaluation,
 * which a session without MCP servers (most `keel` starts) should never pay.
 */

/** The SDK modules Keel uses at run time. */
export type McpSdk = Awaited<ReturnType<typeof importSdk>>;

async function importSdk() {
  const [client, stdio, http, sse, types, auth] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    // Loaded by the http transports anyway; `keel mcp login` calls it directly.
    import("@modelcontextprotocol/sdk/client/auth.js"),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    DEFAULT_INHERITED_ENV_VARS: stdio.DEFAULT_INHERITED_ENV_VARS,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ElicitRequestSchema: types.ElicitRequestSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    auth: auth.auth,
    UnauthorizedError: auth.UnauthorizedError,
  };
}

let loading: Promise<McpSdk> | undefined;

/** The SDK (imported once). */
export function loadSdk(): Promise<McpSdk> {
  loading ??= importSdk();
  return loading;
}
