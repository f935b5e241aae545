/** Model reasoning: one collapsed line by default, the whole text when expanded. */
import { Box, Text } from "ink";
import { wordWrap } from "../format.js";
import { sanitize } from "../sanitize.js";

/** Props of {@link Reasoning}. */
export interface ReasoningProps {
  text: string;
  expanded: boolean;
  /** Whether the model is still thinking (live) or done (history). */
  live?: boolean;
  /** Columns available; live expanded reasoning shows only its last rows at this width. */
  width?: number;
}

/** Rows of live reasoning shown while it streams: the frame must stay shorter than the screen. */
const LIVE_ROWS = 6;

/** "✻ thinking… 1234 chars (ctrl+o to expand)" or the full reasoning, dimmed. */
export function Reasoning({ text, expanded, live = false, width = 80 }: ReasoningProps) {
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
  let body = sanitize(text).trim();
  if (live) {
    const rows = wordWrap(body, Math.max(10, width - 2)).split("\n");
    body = rows.slice(-LIVE_ROWS).join("\n");
  }
  return (
    <Box flexDirection="column">
      <Text dimColor>{head}</Text>
      <Box paddingLeft={2}>
        <Text dimColor italic>
          {body}
        </Text>
      </Box>
    </Box>
  );
}
