/** The completion menu shown under the prompt while a slash command is typed. */
import { Box, Text } from "ink";
import { clip, wordWrap } from "../format.js";
import { sanitize, sanitizeLine } from "../sanitize.js";
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
  // The label column fits the labels that fit in half the width; longer ones get a row.
  const half = Math.floor(width / 2);
  const fitting = visible.map((c) => c.label.length).filter((n) => n + 2 <= half);
  const labelWidth = Math.min(Math.max(...fitting, 4) + 2, half);
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {visible.map((c) => {
        const isSelected = items.indexOf(c) === selected;
        // A label wider than its column (`/mode [default|acceptEdits|…]` at 60 columns) gets a
        // row of its own, wrapped, so its argument hints are read whole; its description
        // follows, indented.
        const ownRow = c.label.length > labelWidth - 1;
        const labelRows = ownRow
          ? wordWrap(sanitizeLine(c.label), Math.max(10, width - 4)).split("\n")
          : [];
        const indent = ownRow ? 4 : labelWidth;
        // Labels and descriptions of custom commands come from project files: sanitized.
        // A long description wraps under itself (at most three rows) instead of being cut.
        const rows = wordWrap(sanitize(c.description), Math.max(10, width - indent - 4)).split(
          "\n",
        );
        const shown =
          rows.length > 3
            ? [...rows.slice(0, 2), clip(rows.slice(2).join(" "), width - indent - 4)]
            : rows;
        return (
          <Box key={c.value} flexDirection="column">
            {labelRows.map((row, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of one label
                key={`l${i}`}
                wrap="truncate-end"
                color={isSelected ? "cyan" : undefined}
              >
                {row}
              </Text>
            ))}
            {shown.map((row, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of one description
                key={i}
                wrap="truncate-end"
                color={isSelected ? "cyan" : undefined}
              >
                {i === 0 && !ownRow ? sanitizeLine(c.label).padEnd(labelWidth) : " ".repeat(indent)}
                <Text dimColor>{row}</Text>
              </Text>
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
