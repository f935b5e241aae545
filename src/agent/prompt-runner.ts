/** The PromptRunner for prompt hooks: one JSON-mode call to the cheap model. */
import type { PromptRunner } from "../hooks/index.js";
import type { ChatClient, Usage } from "../llm/index.js";
import { completeJson } from "../llm/index.js";
import { renderMessage } from "./render.js";

/** Options of `createPromptRunner`. */
export interface PromptRunnerOptions {
  client: ChatClient;
  /** The cheap model used when the hook names none. */
  model: string;
  /** Called with each call's usage (accounting). Must not throw. */
  onUsage?: (model: string, usage: Usage) => void;
}

/** Creates a runner that asks the model once, in JSON mode, at temperature 0. Rejects on failure. */
export function createPromptRunner(opts: PromptRunnerOptions): PromptRunner {
  return async ({ prompt, model, signal }) => {
    const use = model ?? opts.model;
    const result = await completeJson(opts.client, {
      model: use,
      messages: [renderMessage({ role: "user", content: prompt })],
      temperature: 0,
      thinking: "disabled",
      signal,
    });
    if (!result.ok) throw new Error(result.error);
    if (result.usage) opts.onUsage?.(use, result.usage);
    return result.text;
  };
}
