/**
 * The whole of a tool call waiting for approval, scrolled in the rows the prompt had: what the
 * compact view left out ("… 12 more changed lines") can be read before answering.
 */
import { Box, Text, useInput } from "ink";
import { useState } from "react";
import type { CallRow } from "../call-preview.js";

/** Props of {@link CallViewer}. */
export interface CallViewerProps {
  rows: readonly CallRow[];
  /** Rows for the call, the position line included. */
  height: number;
  onClose: () => void;
  isActive: boolean;
}

const TONE = {
  removed: { color: "red" },
  added: { color: "green" },
  dim: { dimColor: true },
  warn: { color: "yellow" },
} as const;

/** Renders one call row in its colour. */
export function CallRowText({ row }: { row: CallRow }) {
  return (
    <Text wrap="truncate-end" {...(row.tone ? TONE[row.tone] : {})}>
      {row.text}
    </Text>
  );
}

/** A window on `rows`: arrows, j/k, PgUp/PgDn, space/b, g/G, Home/End; v, q or Esc closes it. */
export function CallViewer({ rows, height, onClose, isActive }: CallViewerProps) {
  const page = Math.max(1, height - 1);
  const last = Math.max(0, rows.length - page);
  const [top, setTop] = useState(0);
  const move = (to: number) => setTop(Math.min(last, Math.max(0, to)));
  useInput(
    (input, key) => {
      if (key.escape || input === "v" || input === "q") return onClose();
      if (key.upArrow || input === "k") return move(top - 1);
      if (key.downArrow || input === "j") return move(top + 1);
      if (key.pageUp || input === "b") return move(top - page);
      if (key.pageDown || input === " ") return move(top + page);
      if (key.home || input === "g") return move(0);
      if (key.end || input === "G") return move(last);
    },
    { isActive },
  );
  const end = Math.min(rows.length, top + page);
  return (
    <Box flexDirection="column">
      {rows.slice(top, end).map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of one call, by position
        <CallRowText key={top + i} row={row} />
      ))}
      <Text color="cyan">{`rows ${top + 1}–${end} of ${rows.length}${end < rows.length ? " · more below" : " · end"}`}</Text>
    </Box>
  );
}
