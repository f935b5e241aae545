/**
 * Slash commands for the session features of issue 11 (/memory, …), kept apart from
 * commands.ts; commands.ts and slash.ts merge these tables into theirs.
 */
import type { CommandCatalog } from "../../agent/commands/load.js";
import { describeMemory } from "../../agent/memory.js";
import type { TuiBackend } from "./backend.js";
import type { SlashIO } from "./commands.js";
import type { SlashCommandSpec } from "./slash.js";

let customSpecs: readonly SlashCommandSpec[] = [];

/**
 * Makes the session's custom commands (`.keel/commands`, `.claude/commands`, `~/.keel/commands`)
 * known to /help and completion. Built-in commands keep their names.
 */
export function registerCustomCommands(catalog: CommandCatalog, builtIn: readonly string[]): void {
  customSpecs = catalog.commands
    .filter((c) => !builtIn.includes(c.name.toLowerCase()))
    .map((c) => ({
      name: c.name.toLowerCase(),
      description: `${c.description} (${c.source})`,
      ...(c.argumentHint ? { usage: c.argumentHint } : {}),
      argsOptional: true,
    }));
}

/** The custom commands registered for the current session. */
export function customCommandSpecs(): readonly SlashCommandSpec[] {
  return customSpecs;
}

/**
 * Runs `/name args` as a custom command turn when the session has one by that name (the agent
 * expands it); false when there is none.
 */
export async function runCustomCommand(
  inv: { name: string; args: string[] },
  ctx: { backend: TuiBackend; io: SlashIO },
): Promise<boolean> {
  const agent = ctx.backend.agent();
  const found = agent.commands?.().commands.some((c) => c.name.toLowerCase() === inv.name);
  if (!found) return false;
  const line = `/${inv.name}${inv.args.length > 0 ? ` ${inv.args.join(" ")}` : ""}`;
  await ctx.io.stream(agent.runTurn(line, { signal: ctx.io.signal }));
  return true;
}

type Handler = (args: string[], ctx: { backend: TuiBackend; io: SlashIO }) => Promise<void>;

/** Specs for /help and completion. */
export const SESSION_COMMANDS: readonly SlashCommandSpec[] = [
  { name: "memory", description: "memory files loaded into this session", argsOptional: true },
];

/** What each of them does. */
export const SESSION_HANDLERS: Record<string, Handler> = {
  memory: async (_args, { backend, io }) => {
    const report = backend.agent().memory?.() ?? null;
    const lines =
      report === null
        ? ["No memory was read in this session (a resumed session keeps what it loaded first)."]
        : describeMemory(report);
    io.print({ title: "Memory", lines });
  },
};
