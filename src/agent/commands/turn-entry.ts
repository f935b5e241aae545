/**
 * A user turn as the agent runs it: a `/NAME args` prompt naming a custom command is expanded
 * first (its model and allowed-tools hold for this turn only); anything else goes as typed.
 *
 * Mentions (`@shot.png` images, `@server:uri` MCP resources) are read only from text the user
 * typed: the prompt itself, or the arguments typed after `/NAME`. Never from piped input or an
 * editor's embedded file (TurnOptions.typed leaves those out), a custom command's body (the
 * user's own files too: one rule, and a plugin's or a clone's body is someone else's text) or
 * an MCP prompt's text (the server's): text that came from a file or a server cannot make Keel
 * read a resource, attach an image or refuse the turn.
 */
import type { AgentCore } from "../core.js";
import type { AgentEvent } from "../events.js";
import { promptImages } from "../images.js";
import { readBarTestOf } from "../pipeline/index.js";
import { runTurn } from "../turn.js";
import type { InlineImage } from "../types.js";
import { type InvokeContext, invokeCommand, parseCommandLine } from "./invoke.js";
import { attachMcpResources } from "./mcp-prompt.js";

/** Runs one user turn of `core`. Never throws. */
export async function* runUserTurn(
  core: AgentCore,
  ctx: InvokeContext,
  prompt: string,
  signal: AbortSignal,
  attached: {
    /** --image files. */
    explicit?: readonly string[] | undefined;
    /** Images given as bytes (ACP). */
    inline?: readonly InlineImage[] | undefined;
    /** What of `prompt` the user wrote (TurnOptions.typed). */
    typed?: string | undefined;
  } = {},
): AsyncGenerator<AgentEvent> {
  const refuse = function* (reason: string): Generator<AgentEvent> {
    yield { type: "turn_start", turn: core.turns + 1, prompt };
    yield { type: "notice", level: "error", text: reason };
    yield { type: "turn_end", turn: core.turns + 1, text: "", stopReason: "blocked" };
  };
  const invoked = yield* invokeCommand(ctx, prompt, signal);
  if (invoked.kind === "refused") {
    yield* refuse(invoked.reason);
    return;
  }
  const typed = attached.typed ?? prompt;
  // What may hold mentions: for a command, only the arguments the user typed after its name.
  const mentionable = invoked.kind === "none" ? typed : (parseCommandLine(typed)?.args ?? "");
  // `@image.png` mentions and --image files: read (through the read bars) before anything is
  // sent, and refused whole for a model without vision.
  const images = promptImages({
    typed: mentionable,
    ...(attached.explicit ? { explicit: attached.explicit } : {}),
    ...(attached.inline ? { inline: attached.inline } : {}),
    model: invoked.kind === "prompt" ? (invoked.model ?? core.model) : core.model,
    projectDir: ctx.projectDir,
    readBarred: readBarTestOf(ctx.pipeline),
  });
  if (!images.ok) {
    yield* refuse(images.error);
    return;
  }
  // `@server:uri` mentions the user typed are read and attached after the turn's text.
  async function* withResources(text: string): AsyncGenerator<AgentEvent, string> {
    if (!ctx.mcpPrompts) return text;
    const attached = await attachMcpResources(ctx.mcpPrompts, text, mentionable, signal);
    for (const note of attached.notes) yield { type: "notice", level: "warn", text: note };
    return attached.prompt;
  }
  if (invoked.kind === "none") {
    try {
      yield* runTurn(core, yield* withResources(prompt), signal, images.images);
    } finally {
      // A skill's allowed-tools (agent.ts) last until the end of the turn that loaded it.
      core.dispatch.turnAllowed = undefined;
    }
    return;
  }
  core.turnModel = invoked.model;
  core.dispatch.turnAllowed = invoked.allowed ?? undefined;
  try {
    yield* runTurn(core, yield* withResources(invoked.prompt), signal, images.images);
  } finally {
    core.turnModel = null;
    core.dispatch.turnAllowed = undefined;
  }
}
