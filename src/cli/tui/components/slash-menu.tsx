/** The completion menu shown under the prompt while a slash command is typed. */
import { Box, Text } from "ink";
import { clip } from "../format.js";
import type { Completion } from "../slash.js";

/** Props of {@link SlashMenu}. */
export interface SlashMenuProps {
  items: readonly Completion[];
  selected: number;
  width: number;
  /** Rows to use at most (the list scrolls with the selection). */
  maxRows?: number;
}

/** Renders the candidates, the selected one highlighted. */
export function SlashMenu({ items, selected, width, maxRows = 8 }: SlashMenuProps) {
  const start = Math.max(0, Math.min(selected - maxRows + 1, items.length - maxRows));
  const visible = items.slice(Math.max(0, start), Math.max(0, start) + maxRows);
  const labelWidth = Math.min(
    Math.max(...visible.map((c) => c.label.length), 4) + 2,
    Math.floor(width / 2),
  );
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {visible.map((c) => {
        const isSelected = items.indexOf(c) === selected;
        return (
          <Text key={c.value} wrap="truncate-end" color={isSelected ? "cyan" : undefined}>
            {clip(c.label, labelWidth - 1).padEnd(labelWidth)}
            <Text dimColor>{clip(c.description, Math.max(0, width - labelWidth - 4))}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
