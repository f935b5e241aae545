/**
 * What the App draws: the finished transcript (in Ink's <Static>, printed once; a new
 * `staticKey` prints it all again), then the live area, the queued prompts, a slash command's
 * picker, the prompt, the Ctrl+C hint and the status lines. Once the session has ended only the
 * transcript and the status remain.
 */
import { Box, Static, Text } from "ink";
import type { ReactNode } from "react";
import type { PendingPermission } from "../permission-bridge.js";
import { hitRatio, type TranscriptState } from "../transcript.js";
import { EntryView } from "./entry-view.js";
import { LiveArea } from "./live-area.js";
import { PickList, type PickRequest } from "./pick-list.js";
import { PromptInput, type PromptInputProps } from "./prompt-input.js";
import { QueuedPrompts } from "./queued-prompts.js";
import { StatusLine } from "./status-line.js";
import type { UntrustedHook } from "./trust-prompt.js";

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

/** The questions that take the keys once armed (use-approvals.ts). */
export interface FrameQuestions {
  pending: PendingPermission | null;
  pendingArmed: boolean;
  trust: readonly UntrustedHook[] | null;
  trustArmed: boolean;
  onTrustAnswer: (yes: boolean) => void;
}

/** Props of {@link AppFrame}. */
export interface AppFrameProps {
  t: TranscriptState;
  width: number;
  /** Terminal rows, to keep the frame shorter than the screen. */
  rows: number;
  staticKey: number;
  home: string | undefined;
  projectDir: string;
  status: Omit<StatusAreaProps, "t" | "width">;
  /** The session has ended: the last frame, without prompt or spinner. */
  ended: boolean;
  exiting: boolean;
  questions: FrameQuestions;
  /** When the running task started, or null when nothing runs. */
  taskStartedAt: number | null;
  /** What the opening session still waits for, or null. */
  opening: { label: string; since: number } | null;
  queued: readonly string[];
  picker: PickRequest | null;
  prompt: Pick<PromptInputProps, "editor" | "onChange" | "onSubmit" | "dynamicArgs">;
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
  const status = <StatusArea t={p.t} width={p.width} {...p.status} />;
  if (p.ended) {
    return (
      <>
        {transcript}
        <Box width={p.width}>{status}</Box>
      </>
    );
  }
  const { pending, pendingArmed, trust, trustArmed } = p.questions;
  const busy = p.taskStartedAt !== null;
  // The row above the prompt is the spinner's while something runs or the session opens, blank
  // otherwise: one row either way (live-area.tsx), so the frame never shrinks when it stops.
  const spinnerRow = busy || p.opening !== null;
  // While a question or the picker takes the keys, the prompt is hidden.
  const promptHidden = (trust && trustArmed) || (pending && pendingArmed) || p.picker || p.exiting;
  return (
    <>
      {transcript}
      <Box flexDirection="column" width={p.width}>
        <LiveArea
          t={p.t}
          width={p.width}
          rows={p.rows}
          pending={pending}
          armed={pending ? pendingArmed : trustArmed}
          trust={
            trust
              ? { hooks: trust, projectDir: p.projectDir, onAnswer: p.questions.onTrustAnswer }
              : null
          }
          taskStartedAt={p.picker ? null : p.taskStartedAt}
          exiting={p.exiting}
          projectDir={p.projectDir}
          opening={p.opening}
          {...home}
        />
        <QueuedPrompts prompts={p.queued} width={p.width} />
        {p.picker ? <PickList request={p.picker} width={p.width} /> : null}
        {promptHidden ? null : (
          <Box marginTop={spinnerRow ? 0 : 1}>
            <PromptInput
              {...p.prompt}
              width={p.width}
              isActive={!p.exiting}
              busy={busy}
              placeholder={busy ? "type ahead; Enter queues it" : "ask Keel, or /help"}
              maxRows={Math.max(3, p.rows - 8)}
            />
          </Box>
        )}
        {p.hint && !p.exiting ? <Text dimColor>{p.hint}</Text> : null}
        {status}
      </Box>
    </>
  );
}
