/** A vertical list of choices: arrows move, Enter confirms, each choice may have a hot key. */
import { Box, Text, useInput } from "ink";
import { useState } from "react";

/** One choice. */
export interface Choice<T> {
  value: T;
  label: string;
  /** Single characters that pick this choice at once (e.g. "y", "1"). */
  keys: readonly string[];
}

/** Props of {@link ChoiceList}. */
export interface ChoiceListProps<T> {
  choices: readonly Choice<T>[];
  onChoose: (value: T) => void;
  /** Chosen on Escape (and Ctrl+C is left to the app). */
  escapeValue: T;
  isActive?: boolean;
}

/** Renders the choices with a cursor and handles the keys. */
export function ChoiceList<T>({
  choices,
  onChoose,
  escapeValue,
  isActive = true,
}: ChoiceListProps<T>) {
  const [index, setIndex] = useState(0);
  useInput(
    (input, key) => {
      if (!isActive || key.ctrl) return;
      if (key.escape) return onChoose(escapeValue);
      if (key.upArrow) return setIndex((i) => (i + choices.length - 1) % choices.length);
      if (key.downArrow || key.tab) return setIndex((i) => (i + 1) % choices.length);
      if (key.return) {
        const choice = choices[index];
        if (choice) onChoose(choice.value);
        return;
      }
      const hit = choices.find((c) => c.keys.includes(input.toLowerCase()));
      if (hit) onChoose(hit.value);
    },
    { isActive },
  );
  return (
    <Box flexDirection="column">
      {choices.map((c, i) => (
        <Text key={c.label} color={i === index ? "cyan" : undefined}>
          {i === index ? "❯ " : "  "}
          {c.label}
          <Text dimColor>{` (${c.keys[0] ?? ""})`}</Text>
        </Text>
      ))}
    </Box>
  );
}
