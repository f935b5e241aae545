// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${path} is the hook input syntax under test
import { describe, expect, it } from "vitest";
import { fillMcpInput, mcpToolHandler } from "../../../src/hooks/handlers/mcp-tool.js";
import { buildPayload } from "../../../src/hooks/payload.js";
import { handlerRequest } from "../../helpers/handler-request.js";

const payload = buildPayload("PreToolUse", {
  projectDir: "/p",
  tool: "shell",
  input: { command: "ls -la", timeout_ms: 5 },
});

const hook = {
  id: "h",
  handler: {
    type: "mcp_tool" as const,
    server: "sec",
    tool: "scan",
    input: { cmd: "${tool_input.command}", n: "${tool_input.timeout_ms}", keep: 3 },
  },
  source: { path: "/p/.keel/settings.json", dialect: "keel" as const, scope: "user" as const },
  projectDir: "/p",
};

describe("mcp_tool handler", () => {
  it("fills ${path} from the payload, leaves other values alone", () => {
    expect(
      fillMcpInput(
        { a: "${tool_input.command}!", b: ["${missing.x}"], c: 1 },
        { tool_input: { command: "ls" } },
      ),
    ).toEqual({
      a: "ls!",
      b: [""],
      c: 1,
    });
  });

  it("calls the runner with the filled input; the text is read like stdout, isError like a failing command", async () => {
    const seen: unknown[] = [];
    const ok = await mcpToolHandler(
      handlerRequest(hook, payload, {
        mcpToolRunner: async (req) => {
          seen.push({ server: req.server, tool: req.tool, input: req.input });
          return { text: '{"decision":"block","reason":"no"}', isError: false };
        },
      }),
    );
    expect(seen).toEqual([
      { server: "sec", tool: "scan", input: { cmd: "ls -la", n: "5", keep: 3 } },
    ]);
    expect(ok).toMatchObject({
      kind: "raw",
      exitCode: 0,
      stdout: '{"decision":"block","reason":"no"}',
    });
    const bad = await mcpToolHandler(
      handlerRequest(hook, payload, {
        mcpToolRunner: async () => ({ text: "scanner down", isError: true }),
      }),
    );
    expect(bad).toMatchObject({ kind: "raw", exitCode: 1, stderr: "scanner down" });
  });

  it("without a runner (no MCP servers) it warns; a runner that rejects is a warning naming the tool", async () => {
    expect(await mcpToolHandler(handlerRequest(hook, payload))).toMatchObject({
      kind: "decided",
      outcome: "warn",
    });
    const failed = await mcpToolHandler(
      handlerRequest(hook, payload, {
        mcpToolRunner: async () => Promise.reject(new Error("no server sec")),
      }),
    );
    expect(failed).toMatchObject({
      outcome: "warn",
      message: "mcp_tool hook sec/scan failed: no server sec",
    });
  });
});
