/**
 * The one task the App runs at a time (a turn or a slash command) and the prompts queued behind
 * it. A prompt sent while a task runs, or before the session is ready, waits in the queue.
 */
import { useRef, useState } from "react";

/** The running task: aborting its controller stops it; `done` settles when it has stopped. */
export interface Task {
  controller: AbortController;
  done: Promise<void>;
  startedAt: number;
}

/**
 * `fail` shows an error a task threw; `settled` runs after every task (the App starts the next
 * queued prompt there).
 */
export function useTaskQueue(fail: (message: string) => void, settled: () => void) {
  const [task, setTask] = useState<Task | null>(null);
  const taskRef = useRef<Task | null>(null);
  const [queued, setQueued] = useState<readonly string[]>([]);
  const queue = useRef<string[]>([]);

  const run = (body: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    const entry: Task = { controller, done: Promise.resolve(), startedAt: Date.now() };
    entry.done = (async () => {
      try {
        await body(controller.signal);
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      } finally {
        taskRef.current = null;
        setTask(null);
        settled();
      }
    })();
    taskRef.current = entry;
    setTask(entry);
  };
  const enqueue = (text: string) => {
    queue.current.push(text);
    setQueued([...queue.current]);
  };
  const next = (): string | undefined => {
    const text = queue.current.shift();
    setQueued([...queue.current]);
    return text;
  };
  /** Stops the running task and hands back the prompts that were queued behind it. */
  const abort = (): string[] => {
    taskRef.current?.controller.abort();
    const waiting = queue.current.splice(0);
    if (waiting.length > 0) setQueued([]);
    return waiting;
  };
  return { task, taskRef, queued, run, enqueue, next, abort };
}
