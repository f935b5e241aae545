/** Model reasoning: one collapsed line by default, the whole text when expanded. */
import { Box, Text } from "ink";
import { sanitize } from "../sanitize.js";

/** Props of {@link Reasoning}. */
export interface ReasoningProps {
  text: string;
  expanded: boolean;
  /** Whether the model is still thinking (live) or done (history). */
  live?: boolean;
}

/** "✻ thinking… 1234 chars (ctrl+o to expand)" or the full reasoning, dimmed. */
export function Reasoning({ text, expanded, live = false }: ReasoningProps) {
  const chars = [...text].length;
  const head = `✻ ${live ? "thinking…" : "thought"} ${chars} chars`;
  if (!expanded) {
    return (
      <Text dimColor wrap="truncate-end">
        {head}
        {live ? " (ctrl+o to expand)" : " (/thinking)"}
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      <Text dimColor>{head}</Text>
      <Box paddingLeft={2}>
        <Text dimColor italic>
          {sanitize(text).trim()}
        </Text>
      </Box>
    </Box>
  );
}
