/** A spinner with the elapsed time of whatever is running. */
import { Text, useAnimation } from "ink";
import { formatDuration } from "../format.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Props of {@link Spinner}. */
export interface SpinnerProps {
  label: string;
  /** Epoch ms the activity started. */
  since: number;
  hint?: string;
}

/** "⠹ running shell… 3.2s (ctrl+c to interrupt)". */
export function Spinner({ label, since, hint }: SpinnerProps) {
  const { frame } = useAnimation({ interval: 120 });
  const elapsed = formatDuration(Math.max(0, Date.now() - since));
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {label}…{" "}
      <Text dimColor>{elapsed}</Text>
      {hint ? <Text dimColor> ({hint})</Text> : null}
    </Text>
  );
}
