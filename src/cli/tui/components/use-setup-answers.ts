/** The setup form's answers as the user types them (key, then URL), and its keys and pastes. */
import { useInput, usePaste } from "ink";
import { useEffect, useRef, useState } from "react";
import { checkBaseUrl, type SetupValues } from "./setup-values.js";

/** Collects the key, then the base URL (empty: `defaultBaseUrl`); Enter confirms a field, Esc
 *  or Ctrl+C cancels. `onDone` gets the answers once a frame has shown them. */
export function useSetupAnswers(
  defaultBaseUrl: string,
  onDone: (values: SetupValues) => void,
  onCancel: () => void,
) {
  const [step, setStepState] = useState<"key" | "url">("key");
  // Read by keys of the same chunk as the Enter that changed it (a pasted key plus Enter).
  const stepRef = useRef<"key" | "url">("key");
  const setStep = (next: "key" | "url") => {
    stepRef.current = next;
    setStepState(next);
  };
  const [key, setKey] = useState("");
  // Empty means the default, shown as a placeholder: typing a URL replaces it, not appends to it.
  const [url, setUrl] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // The answers, handed back only once a frame shows them: the caller unmounts the form at
  // once, and a URL typed with its Enter in one burst was not drawn yet (the last frame left in
  // the terminal showed the default URL, not the one saved).
  const [finished, setFinished] = useState<SetupValues | null>(null);
  useEffect(() => {
    if (finished) onDone(finished);
  }, [finished, onDone]);
  // Several keys can arrive before a re-render (a pasted key without bracketed paste).
  const latest = useRef({ key: "", url: "" });

  const edit = (f: (s: string) => string) => {
    if (stepRef.current === "key") {
      latest.current.key = f(latest.current.key);
      setKey(latest.current.key);
    } else {
      latest.current.url = f(latest.current.url);
      setUrl(latest.current.url);
    }
    setProblem(null);
  };

  const confirm = () => {
    if (stepRef.current === "key") {
      if (latest.current.key.trim() === "") return setProblem("the key is required");
      return setStep("url");
    }
    const baseUrl = latest.current.url.trim() || defaultBaseUrl;
    const bad = checkBaseUrl(baseUrl);
    if (bad) return setProblem(bad);
    setFinished({ apiKey: latest.current.key.trim(), baseUrl });
  };

  useInput((input, key) => {
    if (finished) return;
    if (key.escape || (key.ctrl && input === "c")) return onCancel();
    if (key.return) return confirm();
    if (key.backspace || key.delete) return edit((s) => s.slice(0, -1));
    if (key.ctrl && input === "u") return edit(() => "");
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow) return;
    // A chunk may hold a whole pasted key and its Enter, even what follows it.
    const parts = input.split(/\r\n?|\n/);
    parts.forEach((part, i) => {
      const clean = part.replace(/[\x00-\x1f\x7f]/g, "");
      if (clean) edit((s) => s + clean);
      if (i < parts.length - 1) confirm();
    });
  });
  usePaste((text) => edit((s) => s + text.replace(/[\x00-\x1f\x7f]/g, "")));
  return { step, key, url, problem, finished };
}
