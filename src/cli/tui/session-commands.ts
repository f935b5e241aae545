/**
 * Slash commands for the session features of issue 11 (/memory, …), kept apart from
 * commands.ts; commands.ts and slash.ts merge these tables into theirs.
 */
import type { Agent, CommandCatalog } from "../../agent/index.js";
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
  {
    name: "harvest",
    description: "extract plan state from the model's reasoning (one cheap call per reply)",
    usage: "[on|off]",
    args: ["on", "off"],
    argsOptional: true,
  },
  {
    name: "branch",
    description: "N samples per request at spread temperatures, one picked",
    usage: "[N|off]",
    args: ["2", "3", "off"],
    argsOptional: true,
  },
  {
    name: "preset",
    description: "fast | smart (pro + harvest) | max (pro + harvest + branch 3)",
    usage: "<fast|smart|max>",
    args: ["fast", "smart", "max"],
    argsOptional: false,
  },
];

/** The presets: model, harvest and branching together (as Reasonix's /preset). */
export const PRESETS = {
  fast: { model: "deepseek-v4-flash", harvest: false, branch: 1 },
  smart: { model: "deepseek-v4-pro", harvest: true, branch: 1 },
  max: { model: "deepseek-v4-pro", harvest: true, branch: 3 },
} as const;

/** Harvest/branch as the user set them: kept across /clear, /resume and /model. */
let reasoningPrefs: { harvest?: boolean; branch?: number } = {};

/** Sets the reasoning settings every agent the TUI opens starts with (`keel --harvest`). */
export function setReasoningPrefs(r: { harvest?: boolean; branch?: number }): void {
  reasoningPrefs = { ...r };
}

/** Called for every agent the TUI opens: its custom commands, the user's reasoning settings. */
export function onAgentOpened(
  agent: Pick<Agent, "commands" | "setReasoning">,
  builtIn: readonly string[],
): void {
  registerCustomCommands(agent.commands(), builtIn);
  agent.setReasoning(reasoningPrefs);
}

function setReasoning(
  backend: TuiBackend,
  io: SlashIO,
  r: { harvest?: boolean; branch?: number },
): void {
  reasoningPrefs = { ...reasoningPrefs, ...r };
  const agent = backend.agent();
  agent.setReasoning?.(r);
  const now = agent.getReasoning?.() ?? { harvest: false, branch: 1 };
  io.notice(
    "info",
    `harvest ${now.harvest ? "on" : "off"} · branch ${now.branch > 1 ? `${now.branch} samples` : "off"}`,
  );
}

/** What each of them does. */
export const SESSION_HANDLERS: Record<string, Handler> = {
  harvest: async (args, { backend, io }) => {
    const a = (args[0] ?? "").toLowerCase();
    if (a !== "" && a !== "on" && a !== "off") {
      io.notice("error", "usage: /harvest [on|off]");
      return;
    }
    const current = backend.agent().getReasoning?.().harvest ?? false;
    setReasoning(backend, io, { harvest: a === "" ? !current : a === "on" });
  },
  branch: async (args, { backend, io }) => {
    const a = (args[0] ?? "").toLowerCase();
    if (a === "") {
      const now = backend.agent().getReasoning?.() ?? { harvest: false, branch: 1 };
      io.notice(
        "info",
        `branch ${now.branch > 1 ? `${now.branch} samples` : "off"} (/branch N|off)`,
      );
      return;
    }
    const n = a === "off" ? 1 : Number(a);
    if (!Number.isInteger(n) || n < 1 || n > 8) {
      io.notice("error", "usage: /branch N|off (N from 2 to 8)");
      return;
    }
    setReasoning(backend, io, { branch: n });
  },
  preset: async (args, { backend, io }) => {
    const name = (args[0] ?? "").toLowerCase();
    if (!(name in PRESETS)) {
      io.notice("error", "usage: /preset fast|smart|max");
      return;
    }
    const p = PRESETS[name as keyof typeof PRESETS];
    reasoningPrefs = { harvest: p.harvest, branch: p.branch };
    if (backend.model() !== p.model) {
      // Loaded when used: commands.ts imports this module's tables at load time.
      const { swap } = await import("./commands.js");
      const ok = await swap(backend, io, { model: p.model }, "other");
      if (!ok) return;
    }
    setReasoning(backend, io, { harvest: p.harvest, branch: p.branch });
    io.notice("info", `preset ${name}: ${backend.model()}`);
  },
  memory: async (_args, { backend, io }) => {
    const report = backend.agent().memory?.() ?? null;
    const lines =
      report === null
        ? ["No memory was read in this session (a resumed session keeps what it loaded first)."]
        : describeMemory(report);
    io.print({ title: "Memory", lines });
  },
};
