/**
 * First-run setup: asks for the API key (masked) and the base URL, then hands them back. Saving
 * is the caller's job (saveLlmConfig writes $KEEL_HOME/config.json with mode 0600).
 */
import { Box, Text } from "ink";
import { maskKey, type SetupValues } from "./setup-values.js";
import { useSetupAnswers } from "./use-setup-answers.js";

export { checkBaseUrl, maskKey, type SetupValues } from "./setup-values.js";

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

/** The two-step form. Enter confirms a field; Esc or Ctrl+C cancels. */
export function SetupForm({ defaultBaseUrl, configPath, onDone, onCancel, error }: SetupFormProps) {
  const { step, key, url, problem, finished } = useSetupAnswers(defaultBaseUrl, onDone, onCancel);

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
