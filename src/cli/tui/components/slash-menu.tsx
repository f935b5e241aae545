/** The completion menu shown under the prompt while a slash command is typed. */
import { Box, Text } from "ink";
import { clip, wordWrap } from "../format.js";
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
        // A long description wraps under itself (at most three rows) instead of being cut.
        const rows = wordWrap(c.description, Math.max(10, width - labelWidth - 4)).split("\n");
        const shown =
          rows.length > 3
            ? [...rows.slice(0, 2), clip(rows.slice(2).join(" "), width - labelWidth - 4)]
            : rows;
        return (
          <Box key={c.value} flexDirection="column">
            {shown.map((row, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of one description
                key={i}
                wrap="truncate-end"
                color={isSelected ? "cyan" : undefined}
              >
                {i === 0
                  ? clip(c.label, labelWidth - 1).padEnd(labelWidth)
                  : " ".repeat(labelWidth)}
                <Text dimColor>{row}</Text>
              </Text>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
