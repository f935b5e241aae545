/**
 * Prompt and agent hook runners for `keel hooks test`, built lazily: the model configuration is
 * read (and an API key required) only when a prompt or agent hook actually runs, so testing
 * command hooks never needs one.
 */

import { createPromptRunner } from "../../../agent/prompt-runner.js";
import { createAgentRunner } from "../../../agent/subagent.js";
import type { AgentRunner, EventPayload, HookEngine, PromptRunner } from "../../../hooks/index.js";
import { createChatClient } from "../../../llm/client.js";
import type { ChatClient } from "../../../llm/types.js";
import { baseUrlOrigin, loadConfig } from "../../llm-config.js";

/** Where the model is, for `keel hooks test`. */
export interface TestRunnerOptions {
  keelHome: string;
  /** `--base-url`: an OpenAI-compatible endpoint (e.g. `keel sim`); overrides the configuration. */
  baseUrl?: string;
  /** The payload being fired (session id, transcript, permission mode for agent hooks). */
  payload: EventPayload;
  /** The engine, once created (agent hooks fire SubagentStart/SubagentStop through it). */
  engine: () => HookEngine;
}

/** A key the simulator accepts; never sent anywhere but an explicit `--base-url`. */
const PLACEHOLDER_KEY = "keel-hooks-test";

interface Model {
  client: ChatClient;
  model: string;
  cheapModel: string;
}

/** Both runners, sharing one lazily loaded model configuration. */
export function createTestRunners(opts: TestRunnerOptions): {
  promptRunner: PromptRunner;
  agentRunner: AgentRunner;
} {
  let loaded: Promise<Model> | undefined;
  const model = (): Promise<Model> => {
    loaded ??= (async () => {
      const result = await loadConfig({ keelHome: opts.keelHome, env: process.env });
      if (!result.ok) throw new Error(result.error);
      const config = result.config;
      const baseUrl = opts.baseUrl ?? config.baseUrl;
      const apiKey = config.apiKey ?? (opts.baseUrl !== undefined ? PLACEHOLDER_KEY : null);
      if (apiKey === null) {
        throw new Error(
          "no API key for prompt/agent hooks: set DEEPSEEK_API_KEY, or pass --base-url " +
            "(e.g. a `keel sim` URL)",
        );
      }
      return {
        client: createChatClient({
          baseUrl,
          ...(opts.baseUrl === undefined ? { baseUrlOrigin: baseUrlOrigin(config) } : {}),
          apiKey,
          maxRetries: 0,
          streamIdleMs: config.streamIdleMs,
        }),
        model: config.model,
        cheapModel: config.cheapModel,
      };
    })();
    return loaded;
  };
  const p = opts.payload;
  return {
    promptRunner: async (req) => {
      const m = await model();
      return createPromptRunner({ client: m.client, model: m.cheapModel })(req);
    },
    agentRunner: async (req) => {
      const m = await model();
      const run = createAgentRunner({
        client: m.client,
        model: m.model,
        hooks: opts.engine,
        info: {
          sessionId: p.session_id,
          transcriptPath: p.transcript_path,
          projectDir: p.cwd,
          permissionMode: () => p.permission_mode,
        },
      });
      return run(req);
    },
  };
}
