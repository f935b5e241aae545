/**
 * Slash commands for the session features of issue 11 (/memory, …), kept apart from
 * commands.ts; commands.ts and slash.ts merge these tables into theirs.
 */
import { describeMemory } from "../../agent/memory.js";
import type { TuiBackend } from "./backend.js";
import type { SlashIO } from "./commands.js";
import type { SlashCommandSpec } from "./slash.js";

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
