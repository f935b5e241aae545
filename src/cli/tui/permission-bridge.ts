/**
 * Connects the agent's `askPermission` callback (created before the UI mounts) to the prompt the
 * UI shows, and MCP servers' questions (elicitation forms) to the form the UI shows in the same
 * place. One question at a time; an aborted turn or an unmounted UI answers "deny" (a form:
 * "cancel").
 */
import type { AskPermission, PermissionAnswer, PermissionPrompt } from "../../agent/index.js";
import type { ElicitationAnswer } from "../../mcp/index.js";
import type { FormField } from "./elicit-form.js";

/** An MCP server's question, shown as a form instead of the permission choices. */
export interface PendingForm {
  server: string;
  message: string;
  url?: string;
  fields: FormField[];
  /** Why it can only be declined. */
  unusable?: string;
  /** The user's answer: closes the question. */
  respond: (answer: ElicitationAnswer) => void;
}

/** A request waiting for the user. */
export interface PendingPermission {
  request: PermissionPrompt;
  answer: (a: PermissionAnswer) => void;
  /** Set for an MCP server's question: the UI shows the form and answers through `respond`. */
  form?: PendingForm;
}

/** The agent side (`ask`, `askForm`) and the UI side (`subscribe`) of the questions. */
export interface PermissionBridge {
  /** Must not throw: resolves "deny" when no UI listens or the turn is aborted. */
  ask(request: PermissionPrompt, opts: { signal: AbortSignal }): ReturnType<AskPermission>;
  /** An MCP server's question as a form; resolves "cancel" when no UI listens or on abort. */
  askForm(
    form: Omit<PendingForm, "respond">,
    opts: { signal: AbortSignal },
  ): Promise<ElicitationAnswer>;
  /** The UI's listener gets the pending request, or null when it was answered. */
  subscribe(listener: (pending: PendingPermission | null) => void): () => void;
}

/** Creates a bridge. */
export function createPermissionBridge(): PermissionBridge {
  let listener: ((pending: PendingPermission | null) => void) | null = null;
  let current: PendingPermission | null = null;
  /** Shows one question until it is answered, the signal aborts or the UI goes away. */
  const present = (
    request: PermissionPrompt,
    signal: AbortSignal,
    settle: (a: PermissionAnswer) => void,
    form?: (pending: PendingPermission) => PendingForm,
  ): void => {
    if (!listener || signal.aborted) {
      settle("deny");
      return;
    }
    let settled = false;
    const pending: PendingPermission = {
      request,
      answer: (a) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        if (current === pending) current = null;
        listener?.(current);
        settle(a);
      },
    };
    if (form) pending.form = form(pending);
    const onAbort = () => pending.answer("deny");
    signal.addEventListener("abort", onAbort, { once: true });
    current = pending;
    listener(pending);
  };
  return {
    ask: (request, { signal }) =>
      new Promise<PermissionAnswer>((resolve) => present(request, signal, resolve)),
    askForm: (form, { signal }) =>
      new Promise<ElicitationAnswer>((resolve) => {
        // Closed any other way (interrupted, quit, the server gave up): the user made no choice.
        let answered: ElicitationAnswer = { action: "cancel" };
        const request: PermissionPrompt = {
          toolName: `MCP server ${form.server}`,
          input: {},
          summary: form.message,
          reason: "an MCP server asks",
          always: null,
        };
        present(
          request,
          signal,
          () => resolve(answered),
          (pending) => ({
            ...form,
            respond: (a) => {
              answered = a;
              pending.answer(a.action === "accept" ? "allow_once" : "deny");
            },
          }),
        );
      }),
    subscribe(fn) {
      listener = fn;
      fn(current);
      return () => {
        if (listener === fn) listener = null;
        current?.answer("deny");
      };
    },
  };
}
