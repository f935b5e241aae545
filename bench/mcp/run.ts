/**
 * MCP benchmark: ratios measured in one run on this machine.
 *
 *   npx tsx bench/mcp/run.ts
 *
 * 1. session start-up (createAgent → start → end) with 0 vs 3 stdio MCP servers (each a node
 *    process built with the SDK: test/fixtures/mcp/fault-server.mjs ok), medians, interleaved
 * 2. one MCP tool call (mcp__a__echo over stdio) vs one built-in tool call (read_file of a small
 *    file), medians, interleaved, through the same Tool.run interface the agent dispatches to
 *
 * Informational: prints the medians and ratios (BENCH_N runs each, default 15 / 200).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";
import { McpManager } from "../../src/mcp/index.js";
import { createBuiltinTools } from "../../src/tools/registry.js";

const STARTS = Number(process.env.BENCH_N ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const FAULT_SERVER = fileURLToPath(
  new URL("../../test/fixtures/mcp/fault-server.mjs", import.meta.url),
);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const project = mkdtempSync(join(tmpdir(), "keel-bench-mcp-"));
writeFileSync(join(project, "small.txt"), "hello\n".repeat(20));
// Nothing is requested from the model in these measurements; the client is never called.
const client = createChatClient({ baseUrl: "http://127.0.0.1:9", apiKey: "unused" });
const server = (name: string) => [name, { command: process.execPath, args: [FAULT_SERVER, "ok"] }];

async function sessionStartup(servers: number): Promise<number> {
  const began = performance.now();
  const agent = await createAgent({
    projectDir: project,
    keelHome: project,
    client,
    model: "deepseek-v4-flash",
    tools: createBuiltinTools({ cwd: project }),
    noHooks: true,
    ...(servers > 0
      ? { mcpServers: Object.fromEntries(["a", "b", "c"].slice(0, servers).map(server)) }
      : {}),
  });
  for await (const _ of agent.start()) {
    // drain
  }
  const ready = performance.now() - began;
  for await (const _ of agent.end()) {
    // drain
  }
  return ready;
}

async function main() {
  // Warm-up: module loading and the first spawn are not what is measured.
  await sessionStartup(0);
  await sessionStartup(3);
  const zero: number[] = [];
  const three: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    zero.push(await sessionStartup(0));
    three.push(await sessionStartup(3));
  }
  const z = median(zero);
  const t = median(three);
  console.log(`session start-up, 0 servers:          ${z.toFixed(1)} ms (median of ${STARTS})`);
  console.log(`session start-up, 3 stdio servers:    ${t.toFixed(1)} ms (median of ${STARTS})`);
  console.log(
    `ratio 3 servers / 0 servers:          ${(t / z).toFixed(1)}×  (+${(t - z).toFixed(1)} ms)`,
  );

  const manager = await McpManager.start({
    servers: [
      {
        name: "a",
        file: "bench",
        scope: "user",
        config: { type: "stdio", command: process.execPath, args: [FAULT_SERVER, "ok"], env: {} },
      },
    ],
    env: process.env,
    cwd: project,
  });
  const echo = manager.tools().find((x) => x.name === "mcp__a__echo");
  const read = createBuiltinTools({ cwd: project }).find((x) => x.name === "read_file");
  if (!echo || !read) throw new Error("tools missing");
  const signal = new AbortController().signal;
  const mcp: number[] = [];
  const builtin: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    let s = performance.now();
    const r1 = await echo.run({ text: "hi" }, { signal });
    const m = performance.now() - s;
    s = performance.now();
    const r2 = await read.run({ path: "small.txt" }, { signal });
    const b = performance.now() - s;
    if (r1.isError || r2.isError) throw new Error("a call failed");
    if (i >= 20) {
      mcp.push(m);
      builtin.push(b);
    }
  }
  await manager.close();
  const mm = median(mcp);
  const bm = median(builtin);
  console.log(
    `one MCP call (stdio echo):            ${(mm * 1000).toFixed(0)} µs (median of ${CALLS})`,
  );
  console.log(
    `one built-in call (read_file):        ${(bm * 1000).toFixed(0)} µs (median of ${CALLS})`,
  );
  console.log(`ratio MCP / built-in:                 ${(mm / bm).toFixed(1)}×`);
  rmSync(project, { recursive: true, force: true });
}

await main();
