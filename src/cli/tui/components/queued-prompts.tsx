/** Prompts typed while a turn runs, waiting their turn; shown above the prompt until they start. */
import { Box, Text } from "ink";
import { clip } from "../format.js";
import { sanitizeLine } from "../sanitize.js";

/** Props of {@link QueuedPrompts}. */
export interface QueuedPromptsProps {
  prompts: readonly string[];
  width: number;
}

const SHOWN = 3;

/** One dim line per queued prompt (its first line), the oldest first. */
export function QueuedPrompts({ prompts, width }: QueuedPromptsProps) {
  if (prompts.length === 0) return null;
  return (
    <Box flexDirection="column" width={width}>
      {prompts.slice(0, SHOWN).map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same text may be queued twice
        <Text key={i} dimColor wrap="truncate-end">
          {clip(`queued: ${sanitizeLine(p.split("\n")[0] ?? "")}`, Math.max(10, width - 1))}
        </Text>
      ))}
      {prompts.length > SHOWN ? (
        <Text dimColor>{`… ${prompts.length - SHOWN} more queued`}</Text>
      ) : null}
    </Box>
  );
}
