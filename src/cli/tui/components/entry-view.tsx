/** Renders one finished transcript entry. */
import { Box, Text } from "ink";
import { plural } from "../../format/text.js";
import { wordWrap } from "../format.js";
import { markdownOrPlain } from "../markdown-loader.js";
import { sanitize } from "../sanitize.js";
import type { Entry } from "../transcript.js";
import { HookRow } from "./hook-row.js";
import { Reasoning } from "./reasoning.js";
import { ToolCard } from "./tool-card.js";

/** Props of {@link EntryView}. */
export interface EntryViewProps {
  entry: Entry;
  width: number;
  home?: string;
}

const USER_LINES = 8;

const LEVEL_COLOR = { info: "blue", warn: "yellow", error: "red" } as const;

/** One entry of the transcript, laid out for `width` columns. */
export function EntryView({ entry, width, home }: EntryViewProps) {
  switch (entry.kind) {
    case "user":
      return <UserPrompt text={entry.text} width={width} />;
    case "assistant":
      return (
        <AssistantText
          text={entry.text}
          continued={entry.continued}
          gap={entry.gap ?? false}
          width={width}
          {...(entry.tableRowsShown !== undefined ? { tableRowsShown: entry.tableRowsShown } : {})}
        />
      );
    case "reasoning":
      return <Reasoning text={entry.text} expanded={entry.expanded} />;
    case "tool":
      return <ToolCard card={entry.card} width={width} {...(home ? { home } : {})} />;
    case "hook":
      return <HookRow run={entry.run} width={width} {...(home ? { home } : {})} />;
    case "notice":
      // The marker in its own column, so a wrapped notice stays indented under its first line.
      return (
        <Box width={width}>
          <Box width={2} flexShrink={0}>
            <Text color={LEVEL_COLOR[entry.level]}>
              {entry.level === "error" ? "✗" : entry.level === "warn" ? "!" : "·"}
            </Text>
          </Box>
          <Text color={LEVEL_COLOR[entry.level]}>{wordWrap(sanitize(entry.text), width - 2)}</Text>
        </Box>
      );
    case "info":
      return (
        <Box flexDirection="column" width={width} marginTop={1}>
          {entry.title ? <Text bold>{entry.title}</Text> : null}
          <Text>{sanitize(entry.lines.join("\n"))}</Text>
        </Box>
      );
  }
}

/** A sent prompt; a long one (a paste) shows its first lines and how many more it had. */
export function UserPrompt({ text, width }: { text: string; width: number }) {
  const lines = sanitize(text).split("\n");
  const shown = lines.slice(0, USER_LINES);
  const more = lines.length - shown.length;
  return (
    <Box marginTop={1} width={width} flexDirection="column">
      <Box>
        <Text color="gray">❯ </Text>
        <Text bold>{shown.join("\n")}</Text>
      </Box>
      {more > 0 ? <Text dimColor>{`  … ${plural(more, "more line")} sent`}</Text> : null}
    </Box>
  );
}

/**
 * Assistant Markdown: a bullet on the first block of a reply, later blocks indented under it;
 * rendered (and sanitized) by renderMarkdown once loaded, wrapped to the columns left of the bullet.
 */
export function AssistantText({
  text,
  continued,
  gap = false,
  width,
  tableRowsShown,
}: {
  text: string;
  continued: boolean;
  gap?: boolean;
  width: number;
  /** The text is a table whose header and this many rows are shown above: the rest is drawn. */
  tableRowsShown?: number;
}) {
  return (
    <Box width={width} marginTop={continued && !gap ? 0 : 1}>
      <Box width={2} flexShrink={0}>
        <Text color="white">{continued ? " " : "●"}</Text>
      </Box>
      <Text>
        {markdownOrPlain(text, width - 2, tableRowsShown === undefined ? {} : { tableRowsShown })}
      </Text>
    </Box>
  );
}
