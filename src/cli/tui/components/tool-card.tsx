/** A tool call as a compact card: name, key argument, status, elapsed time, result preview. */
import { Box, Text } from "ink";
import { clip, formatDuration, keyArgument, preview } from "../format.js";
import type { ToolCardData } from "../transcript.js";

/** Props of {@link ToolCard}. */
export interface ToolCardProps {
  card: ToolCardData;
  /** Columns available. */
  width: number;
  /** Current time for a running card's elapsed time. */
  now?: number;
  /** How many result lines to preview (default 3). */
  previewLines?: number;
}

const STATUS: Record<ToolCardData["status"], { icon: string; color: string; word: string }> = {
  running: { icon: "◌", color: "yellow", word: "running" },
  ok: { icon: "✓", color: "green", word: "ok" },
  error: { icon: "✗", color: "red", word: "error" },
  blocked: { icon: "⊘", color: "red", word: "blocked" },
};

/** Renders one tool call. */
export function ToolCard({ card, width, now, previewLines = 3 }: ToolCardProps) {
  const status = STATUS[card.status];
  const elapsedMs = card.durationMs ?? Math.max(0, (now ?? Date.now()) - card.startedAt);
  const tail = ` ${status.icon} ${status.word} ${formatDuration(elapsedMs)}`;
  const head = `⏺ ${card.name} `;
  const argWidth = Math.max(8, width - head.length - tail.length - 1);
  const arg = clip(keyArgument(card.input), argWidth);
  const body = card.content === undefined ? null : preview(card.content, previewLines);
  const lineWidth = Math.max(10, width - 6);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={status.color} bold>
          {head}
        </Text>
        <Text>{arg}</Text>
        <Text color={status.color}>{tail}</Text>
      </Text>
      {body && body.lines.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {body.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview lines have no identity
            <Text key={i} wrap="truncate-end" dimColor={card.status === "ok"}>
              {i === 0 ? "⎿ " : "  "}
              {clip(line, lineWidth)}
            </Text>
          ))}
          {body.more > 0 ? <Text dimColor>{`  … ${body.more} more lines`}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
