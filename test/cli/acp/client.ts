/**
 * An ACP editor for tests: the official SDK's client side driving a spawned agent process over
 * stdio, as Zed does. Records every session/update and permission request it sees; answers
 * permission requests with the option the test picks. The same driver runs against
 * `gemini --acp` for the shape comparison (docs/acp.md).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

/** What the editor saw and how it answers. */
export interface AcpEditor {
  updates: acp.SessionNotification[];
  permissionRequests: acp.RequestPermissionRequest[];
  /** The option kind picked for the next permission requests (null: cancelled outcome;
   *  "never": no answer at all). */
  answer: acp.PermissionOptionKind | null | "never";
  /** Called on each update (a test can act mid-turn, e.g. cancel). */
  onUpdate?: (n: acp.SessionNotification) => void;
  stderr(): string;
  proc: ChildProcess;
}

/** Spawns `command args` and runs `op` with a connected ACP client; kills the agent after. */
export async function withAcpAgent<T>(
  command: string,
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string },
  op: (ctx: acp.ClientContext, editor: AcpEditor) => Promise<T>,
): Promise<T> {
  const proc = spawn(command, [...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const editor: AcpEditor = {
    updates: [],
    permissionRequests: [],
    answer: "allow_once",
    stderr: () => err,
    proc,
  };
  const app = acp
    .client({ name: "keel-test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      editor.updates.push(params);
      editor.onUpdate?.(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      editor.permissionRequests.push(params);
      // An editor that never answers, not even when the agent withdraws the request.
      if (editor.answer === "never") return new Promise<acp.RequestPermissionResponse>(() => {});
      const picked = params.options.find((o) => o.kind === editor.answer);
      if (picked === undefined) return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: picked.optionId } };
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(proc.stdin as NonNullable<typeof proc.stdin>) as WritableStream<Uint8Array>,
    Readable.toWeb(proc.stdout as NonNullable<typeof proc.stdout>) as ReadableStream<Uint8Array>,
  );
  try {
    return await app.connectWith(stream, (ctx) => op(ctx, editor));
  } finally {
    proc.stdin?.end();
    const exited = new Promise((r) => proc.once("exit", r));
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    if (proc.exitCode === null && proc.signalCode === null) await exited;
    clearTimeout(timer);
  }
}

/** The agent's message text of the updates seen so far. */
export function agentText(updates: readonly acp.SessionNotification[]): string {
  return updates
    .map((n) => n.update)
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
    )
    .join("");
}

/** The updates of one kind. */
export function updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
  updates: readonly acp.SessionNotification[],
  kind: K,
): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
  return updates
    .map((n) => n.update)
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
}
