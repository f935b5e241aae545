/** A slash command's question (/resume's session picker): it takes the keys while shown. */
import { useRef, useState } from "react";
import type { PickRequest } from "./components/pick-list.js";

/** The open picker, if any, and `pick`, which shows one and resolves with the choice. */
export function usePicker() {
  const [picker, setPicker] = useState<PickRequest | null>(null);
  const pickerRef = useRef(false);
  /** Resolves null when cancelled: Esc, or Ctrl+C (or quitting) aborting `signal`. */
  const pick = (
    title: string,
    choices: PickRequest["choices"],
    signal: AbortSignal,
  ): Promise<string | null> =>
    new Promise((resolve) => {
      const done = (value: string | null) => {
        if (!pickerRef.current) return;
        pickerRef.current = false;
        setPicker(null);
        resolve(value);
      };
      if (signal.aborted) return resolve(null);
      signal.addEventListener("abort", () => done(null), { once: true });
      pickerRef.current = true;
      setPicker({ title, choices, onDone: done });
    });
  return { picker, pickerRef, pick };
}
