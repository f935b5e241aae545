/**
 * kill_shell (`KillShell` to Claude hooks and rules): ends a background job's whole process
 * group. It acts only on jobs this session started (each already approved as a shell command),
 * so, like reading their output, it needs no approval of its own.
 */
import { z } from "zod";
import { defineTool, toolFrame } from "./define.js";
import { describeStatus, ShellJobs } from "./shell-jobs.js";
import type { Tool, ToolContext } from "./types.js";

export const killShellSchema = z.strictObject({
  id: z.string().min(1).describe("The background job's id, as the shell tool returned it."),
});
export type KillShellInput = z.infer<typeof killShellSchema>;

const DESCRIPTION = `End a background job started by the shell tool with run_in_background: the job and everything it started get SIGTERM, then SIGKILL.`;

export const killShellTool = defineTool({
  name: "kill_shell",
  description: DESCRIPTION,
  schema: killShellSchema,
  kind: "read",
  changesState: true,
  primaryArg: "id",
  ruleSpec: "none",
  pathFields: [],
  sample: { id: "bg1" },
  create: (ctx, opts) => createKillShellTool(ctx, opts.jobs ?? new ShellJobs(undefined, noKill)),
});

function noKill(): void {}

export function createKillShellTool(ctx: ToolContext, jobs: ShellJobs): Tool<KillShellInput> {
  return {
    ...toolFrame(killShellTool, ctx),
    run: async (input) => {
      const before = jobs.list().find((j) => j.id === input.id);
      const after = jobs.kill(input.id);
      if (!before || !after) {
        return { content: `kill_shell: no background job ${input.id}.`, isError: true };
      }
      return before.status.state === "running"
        ? { content: `Killed background job ${input.id}.`, isError: false }
        : {
            content: `Background job ${input.id} had already ended (${describeStatus(before.status)}).`,
            isError: false,
          };
    },
  };
}
