/**
 * shell_output (`BashOutput` to Claude hooks and rules): a background job's output since the
 * last read, and whether it still runs. Read-only: it reads a file Keel wrote for a job that was
 * already approved and started (src/tools/shell-jobs.ts).
 */
import { z } from "zod";
import { defineTool, toolFrame } from "./define.js";
import { looksBinary } from "./shell.js";
import { describeStatus, ShellJobs } from "./shell-jobs.js";
import type { Tool, ToolContext } from "./types.js";

export const shellOutputSchema = z.strictObject({
  id: z.string().min(1).describe("The background job's id, as the shell tool returned it."),
});
export type ShellOutputInput = z.infer<typeof shellOutputSchema>;

const DESCRIPTION = `Return a background job's new output (since the last shell_output call on it) and its status: running, or how it ended. Jobs are started by the shell tool with run_in_background. To wait for more output, do other work or run a short sleep with the shell tool first: reading again at once returns nothing new.`;

export const shellOutputTool = defineTool({
  name: "shell_output",
  description: DESCRIPTION,
  schema: shellOutputSchema,
  kind: "read",
  primaryArg: "id",
  ruleSpec: "none",
  pathFields: [],
  sample: { id: "bg1" },
  create: (ctx, opts) => createShellOutputTool(ctx, opts.jobs ?? new ShellJobs(undefined, noKill)),
});

function noKill(): void {}

export function createShellOutputTool(ctx: ToolContext, jobs: ShellJobs): Tool<ShellOutputInput> {
  return {
    ...toolFrame(shellOutputTool, ctx),
    run: async (input) => {
      const got = jobs.read(input.id);
      if (!got) {
        const known = jobs.list().map((j) => j.id);
        return {
          content: `shell_output: no background job ${input.id}${known.length ? ` (jobs: ${known.join(", ")})` : " (none was started in this session)"}.`,
          isError: true,
        };
      }
      const body =
        got.text === ""
          ? "(no new output)"
          : looksBinary(got.text)
            ? `[binary output: ${Buffer.byteLength(got.text)} bytes not shown]`
            : got.text.replace(/\n$/, "");
      const notes = [`[job ${got.job.id}: ${describeStatus(got.job.status)}]`];
      if (got.more) notes.push("[more output waits: call shell_output again]");
      if (got.dropped > 0)
        notes.push(`[${got.dropped} bytes past the job's output cap were not kept]`);
      return {
        content: [body, ...notes].join("\n"),
        isError: false,
        details: { status: got.job.status, outputBytes: got.job.outputBytes },
      };
    },
  };
}
