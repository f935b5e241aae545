/**
 * A question with a list of answers a slash command asks (/resume's session picker): arrows move,
 * Enter picks, a digit picks at once, Esc cancels. It takes the keys while shown (the prompt is
 * hidden meanwhile).
 */
import { Box, Text } from "ink";
import { clip } from "../format.js";
import { sanitizeLine } from "../sanitize.js";
import type { ArgChoice } from "../slash.js";
import { type Choice, ChoiceList } from "./choice-list.js";

/** What a command asks: a title, the choices, and where the answer (null: cancelled) goes. */
export interface PickRequest {
  title: string;
  choices: readonly ArgChoice[];
  onDone: (value: string | null) => void;
}

/** Renders a {@link PickRequest} in a box fitted to `width`. */
export function PickList({ request, width }: { request: PickRequest; width: number }) {
  const inner = Math.max(20, width - 4);
  const choices: Choice<string | null>[] = request.choices.map((c, i) => ({
    value: c.value,
    // Room for the cursor and the " (n)" hot key after the label.
    label: clip(sanitizeLine(c.description ? `${c.value}  ${c.description}` : c.value), inner - 6),
    keys: i < 9 ? [String(i + 1)] : [],
  }));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold wrap="truncate-end">
        {clip(request.title, inner)}
      </Text>
      <ChoiceList choices={choices} onChoose={request.onDone} escapeValue={null} />
      <Text dimColor wrap="truncate-end">
        ↑↓ choose · enter confirm · esc cancel
      </Text>
    </Box>
  );
}
