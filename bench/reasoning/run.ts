/**
 * bench/reasoning: does harvest or branching buy accuracy for its cost? Four configurations —
 * baseline, --harvest, --branch 3, both — over the tasks in tasks.ts, in one run.
 * - With DEEPSEEK_API_KEY set: against the real endpoint (KEEL_BASE_URL, KEEL_MODEL, default
 *   deepseek-v4-flash): accuracy, cost and latency per configuration.
 * - Without: against the simulator (scripted replies, fixed latency): cost and latency only —
 *   the simulator's answers say nothing about accuracy, so none is reported.
 * Cost and latency are reported as ratios to the baseline measured in the same run.
 * Run: npx tsx bench/reasoning/run.ts [--tasks N]
 */
import { createAgent } from "../../src/agent/agent.js";
import { createChatClient } from "../../src/llm/client.js";
import { DEFAULT_BASE_URL } from "../../src/llm/config.js";
import { reply, type Simulator, script, startSimulator } from "../../src/sim/index.js";
import { isCorrect, TASKS } from "./tasks.js";

const CONFIGS = [
  { name: "baseline", harvest: false, branch: 1 },
  { name: "harvest", harvest: true, branch: 1 },
  { name: "branch 3", harvest: false, branch: 3 },
  { name: "harvest + branch 3", harvest: true, branch: 3 },
] as const;

const limitArg = process.argv.indexOf("--tasks");
const limit = limitArg > 0 ? Number(process.argv[limitArg + 1]) : TASKS.length;
const tasks = TASKS.slice(0, limit);
const key = process.env.DEEPSEEK_API_KEY?.trim();
const real = key !== undefined && key !== "";

let sim: Simulator | null = null;
if (!real) {
  const plan = JSON.stringify({
    subgoals: ["restate the question", "compute"],
    hypotheses: ["direct computation"],
    uncertainties: ["rounding"],
    rejectedPaths: [],
  });
  const reasoning =
    "Let me restate the problem. The quantities are given; compute step by step, check the units, and verify the result against the constraints before answering. ".repeat(
      12,
    );
  sim = await startSimulator({
    script: script(
      reply().when({ jsonMode: true }).text(plan).repeat(10_000),
      reply()
        .when({ jsonMode: false })
        .reasoning(reasoning)
        .text("Working through it step by step, the result follows.\nANSWER: 42")
        .repeat(10_000),
    )
      // A fixed, realistic-looking delay so parallel samples show in the latency column.
      .latency({ firstByteMs: 40, chunkDelayMs: 1 })
      .chunkChars(200),
  });
}
const baseUrl = real ? (process.env.KEEL_BASE_URL ?? DEFAULT_BASE_URL) : (sim?.url ?? "");
const model = real ? (process.env.KEEL_MODEL ?? "deepseek-v4-flash") : "deepseek-v4-flash";
const client = createChatClient({ baseUrl, apiKey: real ? (key ?? "") : "sk-bench" });

interface Row {
  name: string;
  correct: number;
  costUsd: number;
  ms: number;
  requests: number;
}

// One unmeasured turn first: the simulator loads its tokenizer on its first request.
{
  const warm = await createAgent({
    projectDir: process.cwd(),
    noHooks: true,
    memory: false,
    subagents: false,
    client,
    model,
    tools: [],
  });
  for await (const _ of warm.runTurn("Say hi. ANSWER: hi")) {
    // drain
  }
}

const rows: Row[] = [];
for (const cfg of CONFIGS) {
  const row: Row = { name: cfg.name, correct: 0, costUsd: 0, ms: 0, requests: 0 };
  for (const task of tasks) {
    const agent = await createAgent({
      projectDir: process.cwd(),
      noHooks: true,
      memory: false,
      subagents: false,
      client,
      model,
      tools: [],
      harvest: cfg.harvest,
      branch: cfg.branch,
    });
    const started = performance.now();
    let text = "";
    for await (const ev of agent.runTurn(task.prompt)) {
      if (ev.type === "turn_end") text = ev.text;
      if (ev.type === "error") process.stderr.write(`${cfg.name}/${task.id}: ${ev.message}\n`);
    }
    row.ms += performance.now() - started;
    const s = agent.stats();
    row.costUsd += s.costUsd;
    row.requests += s.requests;
    if (isCorrect(task, text)) row.correct += 1;
  }
  rows.push(row);
}
await sim?.close();

const base = rows[0];
console.log(
  `Reasoning benchmark — ${real ? `real endpoint, ${model}` : "simulator (cost and latency only)"}, ${tasks.length} tasks\n`,
);
const header = real
  ? "config               accuracy  cost USD    cost ×  latency s  latency ×"
  : "config               cost USD    cost ×  latency s  latency ×  requests (conversation)";
console.log(header);
for (const r of rows) {
  const costX = base && base.costUsd > 0 ? r.costUsd / base.costUsd : 0;
  const msX = base && base.ms > 0 ? r.ms / base.ms : 0;
  const cells = real
    ? [
        r.name.padEnd(20),
        `${r.correct}/${tasks.length}`.padStart(8),
        r.costUsd.toFixed(6).padStart(10),
        costX.toFixed(2).padStart(7),
        (r.ms / 1000).toFixed(1).padStart(9),
        msX.toFixed(2).padStart(9),
      ]
    : [
        r.name.padEnd(20),
        r.costUsd.toFixed(6).padStart(10),
        costX.toFixed(2).padStart(7),
        (r.ms / 1000).toFixed(2).padStart(9),
        msX.toFixed(2).padStart(9),
        String(r.requests).padStart(9),
      ];
  console.log(cells.join("  "));
}
