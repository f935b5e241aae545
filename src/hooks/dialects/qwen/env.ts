/**
 * The environment Qwen Code gives its hooks: 0.15's project-directory names, and 0.24's
 * `QWEN_CODE_*` session variables (measured with `npm run compat:qwen`). `QWEN_CODE_PROMPT_ID`
 * is Qwen's `<session_id>########<n>` (./session.ts), `""` before the first prompt.
 * `QWEN_CODE_PROJECT_DIR` is not the project tree: Qwen sets it to its per-project runtime folder
 * (`~/.qwen/projects/<project>`, where its transcripts live), so Keel gives the folder holding the
 * session's transcript (`$KEEL_HOME/sessions/<project>`, src/session/paths.ts), or nothing when
 * the session keeps none. `QWEN_CODE_AGENT_ID` is the sub-agent's id, empty in the main agent.
 * `QWEN_CODE_MODEL_IDENTITY` (`<model>@<hash>` of Qwen's model registry) is left out.
 */
import { dirname } from "node:path";
import type { AnyEventPayload } from "../../events.js";
import type { DialectContext } from "../types.js";
import { qwenPromptId } from "./session.js";

export function qwenEnv(payload: AnyEventPayload, ctx: DialectContext): Record<string, string> {
  const p = payload as {
    prompt_id?: unknown;
    model?: unknown;
    transcript_path?: unknown;
    agent_id?: unknown;
  };
  const env: Record<string, string> = {
    QWEN_PROJECT_DIR: ctx.projectDir,
    GEMINI_PROJECT_DIR: ctx.projectDir,
    QWEN_CODE_SESSION_ID: payload.session_id,
    QWEN_CODE_AGENT_ID: typeof p.agent_id === "string" ? p.agent_id : "",
  };
  if (typeof p.transcript_path === "string" && p.transcript_path !== "") {
    env.QWEN_CODE_PROJECT_DIR = dirname(p.transcript_path);
  }
  // Qwen's form of the id (./session.ts); empty before the first prompt (SessionStart), as Qwen.
  const promptId = typeof p.prompt_id === "string" ? p.prompt_id : "";
  env.QWEN_CODE_PROMPT_ID =
    promptId !== "" && ctx.turn !== undefined
      ? qwenPromptId(payload.session_id, ctx.turn)
      : promptId;
  if (typeof p.model === "string") env.QWEN_CODE_MODEL = p.model;
  return env;
}
