/**
 * Child process of the memory benchmark: runs an N-turn session against the simulator at
 * argv[2] and prints its peak resident memory and transcript size as one JSON line.
 *
 * Started with --expose-gc: a full collection after each turn makes the peak measure what the
 * agent keeps, not how long V8 lets the per-request body strings (garbage) pile up.
 */
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";

const [url, turnsArg] = process.argv.slice(2);
const turns = Number(turnsArg);
if (!url || !Number.isInteger(turns)) {
  process.stderr.write("usage: memory-child.ts <sim-url> <turns>\n");
  process.exit(2);
}
const agent = await createAgent({
  projectDir: process.cwd(),
  noHooks: true,
  client: createChatClient({ baseUrl: url, apiKey: "sk-bench" }),
  model: "deepseek-v4-flash",
  tools: [],
});
const filler = "Please look at the next part of the design and keep notes. ".repeat(32);
const collect: (() => void) | undefined = Reflect.get(globalThis, "gc");
let errors = 0;
for (let i = 0; i < turns; i++) {
  for await (const ev of agent.runTurn(`Turn ${i}. ${filler}`)) {
    if (ev.type === "error") errors += 1;
  }
  collect?.();
}
const transcriptBytes = agent.transcript().reduce((n, m) => n + Buffer.byteLength(m), 0);
process.stdout.write(
  `${JSON.stringify({
    turns,
    errors,
    transcriptBytes,
    maxRssKb: process.resourceUsage().maxRSS,
    heapUsedBytes: process.memoryUsage().heapUsed,
  })}\n`,
);
