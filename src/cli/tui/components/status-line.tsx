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

/**
 * The status text for `width` columns: labels shrink first, then the model and the mode go, so
 * the cache ratios and the cost are the last things a narrow terminal loses.
 */
export function statusText(props: Omit<StatusLineProps, "note">): string {
  const { model, mode, width } = props;
  const turn = formatRatio(props.turnHitRatio);
  const session = formatRatio(props.sessionHitRatio);
  const cost = formatCost(props.sessionCostUsd);
  const forms = [
    `${model} · ${mode} · cache turn ${turn} session ${session} · ${cost}`,
    `${model} · ${mode} · cache ${turn}/${session} · ${cost}`,
    `${mode} · cache ${turn}/${session} · ${cost}`,
    `cache ${turn}/${session} · ${cost}`,
    `${turn}/${session} · ${cost}`,
  ];
  const fits = forms.find((f) => f.length <= width);
  return fits ?? clip(forms[forms.length - 1] ?? "", width);
}

/** Renders the status in one line; a note that does not fit beside it goes on a line above. */
export function StatusLine(props: StatusLineProps) {
  const { width } = props;
  const text = statusText(props);
  const note = props.note ? clip(props.note, Math.max(10, width - 1)) : "";
  const beside = note !== "" && text.length + note.length + 3 <= width;
  return (
    <Box flexDirection="column" width={width}>
      {note && !beside ? <Text color="yellow">{note}</Text> : null}
      <Box width={width}>
        <Text dimColor wrap="truncate-end">
          {text}
        </Text>
        {beside ? <Text color="yellow">{` · ${note}`}</Text> : null}
      </Box>
    </Box>
  );
}
