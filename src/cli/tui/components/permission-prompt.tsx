/** Asks the user to approve one tool call: allow once, allow always for this session, or deny. */
import { Box, Text } from "ink";
import type {
  PermissionAnswer,
  PermissionPrompt as PermissionRequest,
} from "../../../agent/events.js";
import { clip } from "../format.js";
import { sanitize, sanitizeLine } from "../sanitize.js";
import { type Choice, ChoiceList } from "./choice-list.js";

/** Props of {@link PermissionPrompt}. */
export interface PermissionPromptProps {
  request: PermissionRequest;
  onAnswer: (answer: PermissionAnswer) => void;
  width: number;
  isActive?: boolean;
}

const CHOICES: readonly Choice<PermissionAnswer>[] = [
  { value: "allow_once", label: "Allow once", keys: ["y", "1"] },
  { value: "allow_always", label: "Allow always for this session", keys: ["a", "2"] },
  { value: "deny", label: "Deny", keys: ["n", "3"] },
];

/** Renders the request and the three answers. */
export function PermissionPrompt({ request, onAnswer, width, isActive }: PermissionPromptProps) {
  const inner = Math.max(20, width - 4);
  const summary = sanitize(request.summary || "")
    .split("\n")
    .slice(0, 6);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="truncate-end">
        {clip(`Allow ${sanitizeLine(request.toolName)}?`, inner)}
      </Text>
      {summary.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: summary lines have no identity
        <Text key={i} wrap="truncate-end">
          {clip(line, inner)}
        </Text>
      ))}
      {request.reason ? (
        <Text dimColor wrap="truncate-end">
          {clip(sanitizeLine(request.reason), inner)}
        </Text>
      ) : null}
      <ChoiceList
        choices={CHOICES}
        onChoose={onAnswer}
        escapeValue="deny"
        {...(isActive === undefined ? {} : { isActive })}
      />
      <Text dimColor wrap="truncate-end">
        ↑↓ choose · enter confirm · esc deny
      </Text>
    </Box>
  );
}
