/**
 * The shape comparison of issue 28: the same editor script (test/cli/acp/client.ts) run against
 * any ACP agent command, printing what it answered to initialize, session/new and
 * session/set_mode, and the updates and permission requests of one prompt, as JSON on stdout.
 * Not a test (it needs a peer installed outside the project); run by hand:
 *
 *   tsx test/cli/acp/peer-shapes.ts <cwd> <command> [args…]
 *   e.g. tsx test/cli/acp/peer-shapes.ts /tmp/p node ~/.cache/keel-peers/gemini/node_modules/.bin/gemini --acp
 *
 * Set ACP_PROMPT to also send one prompt (an agent without a model answers it with an error,
 * which is recorded), ACP_MODE for the mode set before it (default plan).
 */
import * as acp from "@agentclientprotocol/sdk";
import { withAcpAgent } from "./client.js";

const [cwd, command, ...args] = process.argv.slice(2);
if (cwd === undefined || command === undefined) {
  process.stderr.write("usage: peer-shapes.ts <cwd> <command> [args…]\n");
  process.exit(2);
}

/** A step's answer, or the JSON-RPC error it got. */
async function step<T>(run: () => Promise<T>): Promise<T | { error: unknown }> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof acp.RequestError) {
      return { error: { code: err.code, message: err.message, data: err.data } };
    }
    return { error: String(err) };
  }
}

const transcript = await withAcpAgent(
  command,
  args,
  { env: process.env, cwd },
  async (ctx, editor) => {
    const out: Record<string, unknown> = {};
    out.initialize = await step(() =>
      ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "keel-test-editor", version: "0" },
      }),
    );
    const created = await step(() =>
      ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
    );
    out["session/new"] = created;
    const sessionId = "sessionId" in created ? created.sessionId : undefined;
    if (sessionId !== undefined) {
      const modeId = process.env.ACP_MODE ?? "plan";
      out[`session/set_mode ${modeId}`] = await step(() =>
        ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId }),
      );
      if (process.env.ACP_PROMPT) {
        out["session/prompt"] = await step(() =>
          ctx.request(acp.methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: "text", text: process.env.ACP_PROMPT ?? "" }],
          }),
        );
      }
    }
    out.updates = editor.updates.map((n) => n.update);
    out.permissionRequests = editor.permissionRequests;
    out.stderrTail = editor.stderr().slice(-600);
    return out;
  },
);
process.stdout.write(`${JSON.stringify(transcript, null, 2)}\n`);
