/** The status line: model, permission mode, turn and session cache hit ratios, session cost. */
import { Box, Text } from "ink";
import { clip, formatCost, formatRatio } from "../format.js";

/** Props of {@link StatusLine}. */
export interface StatusLineProps {
  model: string;
  mode: string;
  turnHitRatio: number | null;
  sessionHitRatio: number | null;
  sessionCostUsd: number;
  width: number;
  /** Extra right-aligned hint, e.g. "hooks changed on disk: /hooks reload". */
  note?: string;
}

/** Renders one line that fits `width`: labels shrink before values disappear. */
export function StatusLine(props: StatusLineProps) {
  const { model, mode, width } = props;
  const turn = formatRatio(props.turnHitRatio);
  const session = formatRatio(props.sessionHitRatio);
  const cost = formatCost(props.sessionCostUsd);
  const long = `${model} · ${mode} · cache turn ${turn} session ${session} · ${cost}`;
  const short = `${model} · ${mode} · cache ${turn}/${session} · ${cost}`;
  const text = long.length <= width ? long : clip(short, width);
  const note = props.note && text.length + props.note.length + 3 <= width ? props.note : "";
  return (
    <Box width={width}>
      <Text dimColor wrap="truncate-end">
        {text}
      </Text>
      {note ? <Text color="yellow">{` · ${note}`}</Text> : null}
    </Box>
  );
}
