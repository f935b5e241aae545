/** A spinner with the elapsed time of whatever is running. */
import { Text, useAnimation } from "ink";
import { clip, formatDuration } from "../format.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  label: string;
  /** Epoch ms the activity started. */
  since: number;
  hint?: string;
  /** Columns available: a long label is cut so the elapsed time always shows. */
  width?: number;
}

/** "⠹ running shell… 3.2s (ctrl+c to interrupt)". */
export function Spinner({ label, since, hint, width = 80 }: SpinnerProps) {
  const { frame } = useAnimation({ interval: 120 });
  const elapsed = formatDuration(Math.max(0, Date.now() - since));
  // "⠹ " + label + "… " + elapsed, then the hint only if it fits beside a readable label.
  const room = width - elapsed.length - 5;
  const showHint = hint !== undefined && room - hint.length - 3 >= Math.min(label.length, 30);
  const shown = clip(label, Math.max(8, showHint ? room - (hint?.length ?? 0) - 3 : room));
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {shown}…{" "}
      <Text dimColor>{elapsed}</Text>
      {showHint ? <Text dimColor> ({hint})</Text> : null}
    </Text>
  );
}
