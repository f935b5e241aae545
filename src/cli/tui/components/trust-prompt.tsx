/**
 * Start-up question for untrusted project hooks, showing the commands that would run: each
 * command whole (wrapped, never cut) with its whitespace made visible, so padding cannot push a
 * `; touch X` out of sight. The default answer is not to trust.
 */
import { Box, Text } from "ink";
import { visibleCommand } from "../../terminal-text.js";
import { clip } from "../format.js";
import { sanitizeLine } from "../sanitize.js";
import { ARM_DELAY_MS, useArmed } from "../use-armed.js";
import { type Choice, ChoiceList } from "./choice-list.js";

/** One untrusted hook as the prompt lists it. */
export interface UntrustedHook {
  /** A hook, or a project MCP server (trusted together with the hooks). */
  kind: "hook" | "mcp";
  event: string;
  command: string;
  /** The file it comes from, as the user would write it. */
  source: string;
}

/** What the question is about, in words: "hooks", "MCP servers" or both. */
export function trustSubject(rows: readonly UntrustedHook[]): string {
  const hooks = rows.some((r) => r.kind === "hook");
  const servers = rows.some((r) => r.kind === "mcp");
  return hooks && servers ? "hooks and MCP servers" : servers ? "MCP servers" : "hooks";
}

/** Props of {@link TrustPrompt}. */
export interface TrustPromptProps {
  projectDir: string;
  hooks: readonly UntrustedHook[];
  onAnswer: (trust: boolean) => void;
  width: number;
  /** How many hooks to list before "… N more" (default 8; fits 80×24). */
  maxListed?: number;
  /** Keys are ignored this long after the prompt appears (default ARM_DELAY_MS). */
  armDelayMs?: number;
  /** Whether it takes keys yet, when the screen decides (the prompt below takes them until). */
  armed?: boolean;
}

// "Don't trust" comes first: Enter on a prompt that appeared unexpectedly must not trust.
const CHOICES: readonly Choice<boolean>[] = [
  { value: false, label: "Don't trust (continue without them)", keys: ["n", "1"] },
  { value: true, label: "Trust these hooks and run them", keys: ["y", "2"] },
];

/** Renders the untrusted hooks and the two answers. */
export function TrustPrompt({
  projectDir,
  hooks,
  onAnswer,
  width,
  maxListed = 8,
  armDelayMs = ARM_DELAY_MS,
  armed: armedFromScreen,
}: TrustPromptProps) {
  const armedByTimer = useArmed(armedFromScreen === undefined ? armDelayMs : 0);
  const armed = armedFromScreen ?? armedByTimer;
  const inner = Math.max(20, width - 4);
  const listed = hooks.slice(0, maxListed);
  const hidden = hooks.length - listed.length;
  // Nothing the user has not seen can be trusted here: a hostile repository could otherwise put
  // its command ninth. With hooks left out, only "Don't trust" is offered.
  const choices = hidden > 0 ? CHOICES.filter((c) => !c.value) : CHOICES;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} width={width}>
      <Text bold color="yellow" wrap="wrap">
        {`This project defines ${trustSubject(hooks)} that run commands on your machine:`}
      </Text>
      <Text dimColor wrap="truncate-end">
        {clip(sanitizeLine(projectDir), inner)}
      </Text>
      {listed.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: hooks may repeat the same command
        <Box key={i} flexDirection="column">
          <Text dimColor wrap="truncate-end">
            {clip(`${h.event} (${sanitizeLine(h.source)}):`, inner)}
          </Text>
          <Text wrap="wrap">{`  ${visibleCommand(h.command)}`}</Text>
        </Box>
      ))}
      {hidden > 0 ? (
        <Text color="yellow" wrap="wrap">
          {`… ${hidden} more not shown. Read them whole with \`keel hooks list\`, then trust them with \`keel hooks trust\`.`}
        </Text>
      ) : null}
      <ChoiceList choices={choices} onChoose={onAnswer} escapeValue={false} isActive={armed} />
      <Text dimColor wrap="truncate-end">
        {armed
          ? "↑↓ choose · enter confirm · esc continues without them"
          : "(keys typed now are ignored)"}
      </Text>
    </Box>
  );
}
