/**
 * First-run setup: asks for the API key (masked) and the base URL, then hands them back. Saving
 * is the caller's job (saveLlmConfig writes $KEEL_HOME/config.json with mode 0600).
 */
import { Box, Text, useInput, usePaste } from "ink";
import { useEffect, useRef, useState } from "react";

/** What the form collects. */
export interface SetupValues {
  apiKey: string;
  baseUrl: string;
}

/** Props of {@link SetupForm}. */
export interface SetupFormProps {
  defaultBaseUrl: string;
  /** Where the answers will be saved, shown to the user. */
  configPath: string;
  onDone: (values: SetupValues) => void;
  onCancel: () => void;
  /** Validation error from the caller (e.g. saving failed). */
  error?: string;
}

/** Shows "sk-…abcd": never the whole key. */
export function maskKey(key: string): string {
  const k = key.trim();
  if (k.length === 0) return "";
  if (k.length <= 8) return "•".repeat(k.length);
  return `${k.slice(0, 3)}…${k.slice(-4)}`;
}

/** Checks a base URL the way the client will use it. */
export function checkBaseUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return "the base URL must be http(s)";
    return null;
  } catch {
    return "not a URL (e.g. https://api.deepseek.com)";
  }
}

/** The two-step form. Enter confirms a field; Esc or Ctrl+C cancels. */
export function SetupForm({ defaultBaseUrl, configPath, onDone, onCancel, error }: SetupFormProps) {
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

  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Welcome to Keel — no API key is configured yet.</Text>
      <Text dimColor>
        Keel saves them to {configPath}, readable only by you. Setting DEEPSEEK_API_KEY or
        KEEL_BASE_URL skips this.
      </Text>
      <Box marginTop={1}>
        <Text color={step === "key" ? "cyan" : undefined}>API key: </Text>
        <Text>{step === "key" ? "•".repeat(key.length) : maskKey(key)}</Text>
        {step === "key" ? <Text inverse> </Text> : null}
      </Box>
      {finished ? (
        <Text>
          <Text>Base URL: </Text>
          {finished.baseUrl}
        </Text>
      ) : step === "url" ? (
        <Box>
          <Text color="cyan">Base URL: </Text>
          <Text>{url}</Text>
          <Text inverse> </Text>
          {url === "" ? <Text dimColor>{` ${defaultBaseUrl} (Enter keeps it)`}</Text> : null}
        </Box>
      ) : null}
      {problem || error ? <Text color="red">{problem ?? error}</Text> : null}
      {finished ? null : <Text dimColor>Enter to confirm · Esc to cancel</Text>}
    </Box>
  );
}
