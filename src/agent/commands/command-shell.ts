/**
 * A custom command's !`cmd` as a shell tool call through the execution pipeline
 * (pipeline/index.ts): a user deny rule refuses it even with --yes, plan mode refuses it,
 * PreToolUse / PermissionRequest hooks see it (tool_name `shell`, `Bash` for Claude hooks), and
 * it runs in the OS sandbox where any auto-approved shell command would.
 */
import type { AgentEvent } from "../events.js";
import { type PipelineContext, runPipeline } from "../pipeline/index.js";

/** The events of a call that belong to a turn's tool calls, which this is not (no model asked). */
const CALL_EVENTS = new Set<AgentEvent["type"]>(["tool_call", "tool_output", "tool_result"]);

/** Runs `cmd`; hook runs and notices go to `events`. Never throws. */
export async function commandShell(
  ctx: { pipeline: PipelineContext },
  cmd: string,
  id: string,
  signal: AbortSignal,
  events: AgentEvent[],
): Promise<{ ok: true; output: string } | { ok: false; refused: string }> {
  const pipeline: PipelineContext = ctx.pipeline;
  if (!pipeline.tools.some((t) => t.name === "shell")) {
    return { ok: false, refused: "this session has no shell tool" };
  }
  const call = { id: `command_${id}`, name: "shell", input: { command: cmd } };
  const run = runPipeline(pipeline, call, signal);
  let step = await run.next();
  while (!step.done) {
    if (!CALL_EVENTS.has(step.value.type)) events.push(step.value);
    step = await run.next();
  }
  const outcome = step.value;
  if (outcome.status === "blocked") return { ok: false, refused: outcome.content.slice(0, 600) };
  if (outcome.status === "error") {
    return { ok: false, refused: `it failed: ${outcome.content.slice(0, 300)}` };
  }
  const output = outcome.content.replace(/\n?\[exit code: 0\]\s*$/, "");
  // Hook context comes apart from the tool result (pipeline/types.ts); here it joins the output.
  return { ok: true, output: outcome.context ? `${output}\n\n${outcome.context}` : output };
}
