/**
 * The App's own keys (the prompt, the questions and the picker handle theirs): Ctrl+C interrupts
 * the task, clears the prompt, or (twice within `doubleMs`) exits; Esc interrupts; Shift+Tab
 * cycles the permission mode; Ctrl+O shows or hides reasoning; Ctrl+D on an empty prompt exits.
 */
import { useInput } from "ink";
import { useEffect, useRef, useState } from "react";
import { type EditorState, emptyEditor } from "./editor.js";

const INTERRUPTING = "interrupting… (Ctrl+C again to exit)";
const AGAIN_TO_EXIT = "Press Ctrl+C again to exit";

/** What the keys act on; read at the key press, so refs are passed as getters. */
export interface KeyTargets {
  doubleMs: number;
  editor: EditorState;
  setEditor: (update: EditorState | ((e: EditorState) => EditorState)) => void;
  /** A permission question is open. */
  questionOpen: () => boolean;
  /** A task (turn or slash command) is running. */
  taskRunning: () => boolean;
  pickerOpen: () => boolean;
  /** Denies the open question and stops the task; returns the prompts queued behind it. */
  stopTask: () => string[];
  quit: () => void;
  cycleMode: () => void;
  toggleReasoning: () => void;
}

/** Handles the keys; returns the hint shown under the prompt and `taskEnded` for the App. */
export function useKeyHandling(k: KeyTargets) {
  const [hint, setHint] = useState<string | null>(null);
  const lastCtrlC = useRef(0);

  // The Ctrl+C hint means "a second press exits", which is only true inside the window.
  useEffect(() => {
    if (hint === null) return;
    const timer = setTimeout(() => setHint(null), k.doubleMs);
    return () => clearTimeout(timer);
  }, [hint, k.doubleMs]);

  // Prompts queued behind an interrupted turn go back to the prompt: the user stopped the work,
  // so nothing queued runs without being sent again.
  const interruptTask = () => {
    const waiting = k.stopTask();
    if (waiting.length === 0) return;
    k.setEditor((e) => {
      const text = [...waiting, e.text].filter((x) => x !== "").join("\n");
      return { ...e, text, cursor: text.length, historyIndex: null };
    });
  };

  const interrupt = () => {
    const now = Date.now();
    const quick = now - lastCtrlC.current < k.doubleMs;
    lastCtrlC.current = now;
    if (k.questionOpen() || k.taskRunning()) {
      if (quick) return k.quit();
      interruptTask();
      setHint(INTERRUPTING);
      return;
    }
    if (k.editor.text !== "") {
      lastCtrlC.current = 0;
      k.setEditor(emptyEditor(k.editor.history));
      return;
    }
    if (quick) return k.quit();
    setHint(AGAIN_TO_EXIT);
  };

  useInput((input, key) => {
    if (key.ctrl && input === "c") return interrupt();
    // "Twice" means twice in a row: any other key starts the count again.
    lastCtrlC.current = 0;
    if (hint) setHint(null);
    if (key.tab && key.shift && !k.questionOpen()) return k.cycleMode();
    if (key.ctrl && input === "o") return k.toggleReasoning();
    // Esc in a picker cancels the picker (it handles the key), not the command behind it.
    if (key.escape && k.taskRunning() && !k.questionOpen() && !k.pickerOpen()) {
      return interruptTask();
    }
    if (key.ctrl && input === "d" && k.editor.text === "" && !k.taskRunning()) return k.quit();
  });

  /** A task ended: "interrupting…" becomes what a second Ctrl+C now does. */
  const taskEnded = () => setHint((h) => (h === INTERRUPTING ? AGAIN_TO_EXIT : h));
  return { hint, taskEnded };
}
