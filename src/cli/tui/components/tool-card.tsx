/** A tool call as a compact card: name, key argument, status, elapsed time, result preview. */
import { Box, Text } from "ink";
import { plural } from "../../format/text.js";
import { clip, formatDuration, keyArgument, preview, tailLines } from "../format.js";
import { sanitize } from "../sanitize.js";
import type { CardAttachment, ToolCardData } from "../transcript.js";
import { HookRow } from "./hook-row.js";

/** Props of {@link ToolCard}. */
export interface ToolCardProps {
  card: ToolCardData;
  /** Columns available. */
  width: number;
  /** Current time for a running card's elapsed time. */
  now?: number;
  /** How many result lines to preview (default 3). */
  previewLines?: number;
  /** Home directory to shorten hook commands with. */
  home?: string;
  /** A running call that waits for the user's approval says so instead of "running". */
  awaitingApproval?: boolean;
  /** A running call whose hook is still running says so (the spinner names the hook). */
  awaitingHook?: boolean;
}

const AWAITING_APPROVAL = { icon: "?", color: "yellow", word: "awaiting approval" };
const AWAITING_HOOK = { icon: "◌", color: "yellow", word: "hook running" };

// Hooks that decide whether the call runs are shown above its result; the others below it.
const BEFORE_RESULT = new Set(["PreToolUse", "PermissionRequest", "Notification"]);

const LEVEL = {
  info: { color: "blue", icon: "· " },
  warn: { color: "yellow", icon: "! " },
  error: { color: "red", icon: "✗ " },
} as const;

/** Splits attachments around the result; a notice stays with the hook row it followed. */
function placeAttachments(items: readonly CardAttachment[]): {
  before: CardAttachment[];
  after: CardAttachment[];
} {
  const before: CardAttachment[] = [];
  const after: CardAttachment[] = [];
  let group = after;
  for (const item of items) {
    if (item.kind === "hook") group = BEFORE_RESULT.has(item.run.event) ? before : after;
    group.push(item);
  }
  return { before, after };
}

function Attachments({
  items,
  width,
  home,
}: {
  items: readonly CardAttachment[];
  width: number;
  home?: string;
}) {
  if (items.length === 0) return null;
  return (
    <Box flexDirection="column">
      {items.map((item, i) =>
        item.kind === "hook" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: attachments only ever grow
          <HookRow key={i} run={item.run} width={width} {...(home ? { home } : {})} />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: attachments only ever grow
          <Box key={i} paddingLeft={2} width={width}>
            <Text color={LEVEL[item.level].color}>
              {LEVEL[item.level].icon}
              {sanitize(item.text)}
            </Text>
          </Box>
        ),
      )}
    </Box>
  );
}

const STATUS: Record<ToolCardData["status"], { icon: string; color: string; word: string }> = {
  running: { icon: "◌", color: "yellow", word: "running" },
  ok: { icon: "✓", color: "green", word: "ok" },
  error: { icon: "✗", color: "red", word: "error" },
  blocked: { icon: "⊘", color: "red", word: "blocked" },
};

/** Renders one tool call. */
export function ToolCard({
  card,
  width,
  now,
  previewLines = 3,
  home,
  awaitingApproval = false,
  awaitingHook = false,
}: ToolCardProps) {
  const running = card.status === "running";
  const status =
    running && awaitingApproval
      ? AWAITING_APPROVAL
      : running && awaitingHook
        ? AWAITING_HOOK
        : STATUS[card.status];
  const elapsedMs = card.durationMs ?? Math.max(0, (now ?? Date.now()) - card.startedAt);
  const elapsed = awaitingApproval ? "" : ` ${formatDuration(elapsedMs)}`;
  const tail = card.historic ? "" : ` ${status.icon} ${status.word}${elapsed}`;
  const head = `⏺ ${card.name} `;
  const argWidth = Math.max(8, width - head.length - tail.length - 1);
  const arg = clip(keyArgument(card.input), argWidth);
  const { before, after } = placeAttachments(card.attached ?? []);
  // A call a hook blocked: the hook's row above already gives its reason, which is also all the
  // result says ("Blocked by PreToolUse hook `…`: <reason>"); shown once, in the row.
  const blockedByHook =
    card.status === "blocked" &&
    before.some((item) => item.kind === "hook" && item.run.outcome === "block");
  const body = blockedByHook
    ? null
    : card.content !== undefined
      ? preview(card.content, card.historic ? 1 : previewLines)
      : card.output
        ? { lines: tailLines(card.output, previewLines), more: 0 }
        : null;
  const lineWidth = Math.max(10, width - 6);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={card.historic ? "gray" : status.color} bold>
          {head}
        </Text>
        <Text>{arg}</Text>
        <Text color={status.color}>{tail}</Text>
      </Text>
      <Attachments items={before} width={width} {...(home ? { home } : {})} />
      {body && body.lines.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {body.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: preview lines have no identity
            <Text key={i} wrap="truncate-end" dimColor={card.status === "ok"}>
              {i === 0 ? "⎿ " : "  "}
              {clip(line, lineWidth)}
            </Text>
          ))}
          {body.more > 0 ? <Text dimColor>{`  … ${plural(body.more, "more line")}`}</Text> : null}
        </Box>
      ) : null}
      <Attachments items={after} width={width} {...(home ? { home } : {})} />
    </Box>
  );
}
