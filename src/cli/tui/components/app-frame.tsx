/**
 * What the App draws: the finished transcript (in Ink's <Static>, printed once; a new
 * `staticKey` prints it all again), then the live area, the queued prompts, a slash command's
 * picker, the prompt, the Ctrl+C hint and the status lines. Once the session has ended only the
 * transcript and the status remain.
 */
import { Box, Static, Text } from "ink";
import type { ReactNode } from "react";
import { hitRatio, type TranscriptState } from "../transcript.js";
import { EntryView } from "./entry-view.js";
import { LiveArea, type LiveAreaProps } from "./live-area.js";
import { PickList, type PickRequest } from "./pick-list.js";
import { PromptInput, type PromptInputProps } from "./prompt-input.js";
import { QueuedPrompts } from "./queued-prompts.js";
import { StatusLine } from "./status-line.js";

/** Props of {@link StatusArea}. */
export interface StatusAreaProps {
  t: TranscriptState;
  width: number;
  /** The user's `statusLine` command's output, shown above Keel's line, or null. */
  customStatus: string | null;
  model: string;
  mode: string;
  hooksChanged: boolean;
}

/** The user's status line (if any) above Keel's. */
export function StatusArea({ t, width, customStatus, model, mode, hooksChanged }: StatusAreaProps) {
  return (
    <Box flexDirection="column" width={width}>
      {customStatus !== null ? <Text wrap="truncate-end">{customStatus}</Text> : null}
      <StatusLine
        model={model}
        mode={mode}
        turnHitRatio={hitRatio(t.turn)}
        sessionHitRatio={hitRatio(t.session)}
        sessionCostUsd={t.session.costUsd}
        width={width}
        {...(hooksChanged ? { note: "hooks changed on disk: /hooks reload" } : {})}
      />
    </Box>
  );
}

/** Props of {@link AppFrame}. */
export interface AppFrameProps {
  t: TranscriptState;
  width: number;
  staticKey: number;
  home?: string;
  status: StatusAreaProps;
  /** The session has ended: the last frame, without prompt or spinner. */
  ended: boolean;
  live: LiveAreaProps;
  queued: readonly string[];
  picker: PickRequest | null;
  /** The prompt, or null while a question or the picker takes the keys. */
  prompt: PromptInputProps | null;
  /** A task runs: the prompt sits right under the live area. */
  busy: boolean;
  hint: string | null;
}

/** The whole screen of the interactive session. */
export function AppFrame(p: AppFrameProps) {
  const home = p.home ? { home: p.home } : {};
  const transcript: ReactNode = (
    <Static key={p.staticKey} items={p.t.done}>
      {(entry) => <EntryView key={entry.key} entry={entry} width={p.width} {...home} />}
    </Static>
  );
  const status = <StatusArea {...p.status} />;
  if (p.ended) {
    return (
      <>
        {transcript}
        <Box width={p.width}>{status}</Box>
      </>
    );
  }
  return (
    <>
      {transcript}
      <Box flexDirection="column" width={p.width}>
        <LiveArea {...p.live} />
        <QueuedPrompts prompts={p.queued} width={p.width} />
        {p.picker ? <PickList request={p.picker} width={p.width} /> : null}
        {p.prompt ? (
          <Box marginTop={p.busy ? 0 : 1}>
            <PromptInput {...p.prompt} />
          </Box>
        ) : null}
        {p.hint && !p.live.exiting ? <Text dimColor>{p.hint}</Text> : null}
        {status}
      </Box>
    </>
  );
}
