/**
 * Child process of the memory benchmark: runs an N-turn session against the simulator at
 * argv[2] and prints its peak resident memory, heap in use at the end and transcript size as
 * one JSON line. argv[4] picks what is measured:
 * - `gc`: started with --expose-gc, a full collection after every turn and before the heap is
 *   read, so `heapUsedBytes` is what the agent retains (no garbage counted);
 * - `nogc`: nothing forced, V8 collects as it would in real use, so `maxRssKb` is the peak a
 *   user sees, garbage from the per-request body strings included.
 */
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";

const [url, turnsArg, mode] = process.argv.slice(2);
const turns = Number(turnsArg);
if (!url || !Number.isInteger(turns) || (mode !== "gc" && mode !== "nogc")) {
  process.stderr.write("usage: memory-child.ts <sim-url> <turns> gc|nogc\n");
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
const collect: (() => void) | undefined = mode === "gc" ? Reflect.get(globalThis, "gc") : undefined;
if (mode === "gc" && collect === undefined) {
  process.stderr.write("memory-child.ts: gc mode needs node --expose-gc\n");
  process.exit(2);
}
let errors = 0;
for (let i = 0; i < turns; i++) {
  for await (const ev of agent.runTurn(`Turn ${i}. ${filler}`)) {
    if (ev.type === "error") errors += 1;
  }
  collect?.();
}
const transcriptBytes = agent.transcript().reduce((n, m) => n + Buffer.byteLength(m), 0);
collect?.();
process.stdout.write(
  `${JSON.stringify({
    turns,
    mode,
    errors,
    transcriptBytes,
    maxRssKb: process.resourceUsage().maxRSS,
    heapUsedBytes: process.memoryUsage().heapUsed,
  })}\n`,
);
