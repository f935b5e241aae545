/**
 * The live part above the prompt: what is streaming (reasoning, the current line of the answer),
 * the tool calls still running, and either the question waiting for the user (permission, an MCP
 * server's form, trust) or the spinner of whatever runs.
 */
import { Box } from "ink";
import type { PendingPermission } from "../permission-bridge.js";
import { liveAssistantText, type TranscriptState } from "../transcript.js";
import { ElicitationForm } from "./elicitation-form.js";
import { AssistantText } from "./entry-view.js";
import { LiveTools } from "./live-tools.js";
import { PermissionPrompt } from "./permission-prompt.js";
import { Reasoning } from "./reasoning.js";
import { Spinner } from "./spinner.js";
import { TrustPrompt, type UntrustedHook } from "./trust-prompt.js";

/** Props of {@link LiveArea}. */
export interface LiveAreaProps {
  t: TranscriptState;
  width: number;
  /** Terminal rows, to keep the frame shorter than the screen. */
  rows: number;
  pending: PendingPermission | null;
  /** Whether the permission or trust question takes keys yet (until then the prompt does). */
  armed: boolean;
  trust: {
    hooks: readonly UntrustedHook[];
    projectDir: string;
    onAnswer: (yes: boolean) => void;
  } | null;
  /** When the running task started, or null when nothing runs. */
  taskStartedAt: number | null;
  exiting: boolean;
  /** What the session being opened still waits for (MCP servers starting), or null. */
  opening?: { label: string; since: number } | null;
  home?: string;
  /** The project directory: a write's prompt reads the file it would replace from there. */
  projectDir?: string;
}

/** Renders the live part of the screen. */
export function LiveArea(props: LiveAreaProps) {
  return (
    <>
      <LiveOutput {...props} />
      <QuestionOrSpinner {...props} />
    </>
  );
}

/** What is streaming (reasoning, the answer's current line) and the tool calls still running. */
function LiveOutput({ t, width, pending, home }: LiveAreaProps) {
  const live = liveAssistantText(t);
  return (
    <>
      {t.streamingReasoning ? (
        <Reasoning text={t.streamingReasoning} expanded={t.expandReasoning} width={width} live />
      ) : null}
      {live ? (
        <AssistantText
          text={live}
          continued={t.streamingContinued}
          gap={t.blockGap}
          width={width}
          {...(t.block.tableShown !== undefined ? { tableRowsShown: t.block.tableShown - 2 } : {})}
        />
      ) : null}
      {t.tools.length > 0 ? (
        <LiveTools
          tools={t.tools}
          width={width}
          awaitingApproval={pending !== null}
          hookRunning={t.runningHooks.length > 0}
          {...(home ? { home } : {})}
        />
      ) : null}
    </>
  );
}

/** The question waiting for the user (an MCP server's form, a permission, trust), else the
 *  spinner of the running task or of the session still opening. */
function QuestionOrSpinner({
  t,
  width,
  rows,
  pending,
  armed,
  trust,
  taskStartedAt,
  exiting,
  opening,
  projectDir,
}: LiveAreaProps) {
  const phase = t.phase;
  return (
    <>
      {pending?.form ? (
        <ElicitationForm
          server={pending.form.server}
          message={pending.form.message}
          {...(pending.form.url !== undefined ? { url: pending.form.url } : {})}
          fields={pending.form.fields}
          {...(pending.form.unusable !== undefined ? { unusable: pending.form.unusable } : {})}
          width={width}
          armed={armed}
          onDone={pending.form.respond}
          // The card above it and the status line take about six rows.
          maxRows={Math.max(8, rows - 6)}
        />
      ) : pending ? (
        <PermissionPrompt
          request={pending.request}
          onAnswer={pending.answer}
          width={width}
          armed={armed}
          {...(projectDir !== undefined ? { projectDir } : {})}
          // The rest of the prompt, the card above it and the status line take about 12 rows;
          // two more keep the frame below the screen height (a taller one garbles the scrollback).
          maxCallRows={Math.max(4, rows - 14)}
        />
      ) : trust ? (
        <TrustPrompt
          projectDir={trust.projectDir}
          hooks={trust.hooks}
          onAnswer={trust.onAnswer}
          width={width}
          armed={armed}
        />
      ) : taskStartedAt !== null || exiting ? (
        // No margin of its own: the spinner takes the blank row the prompt keeps above itself
        // when nothing runs (app-frame.tsx), so the frame is as tall busy as idle. A frame that
        // got shorter would leave its bottom rows blank on a full screen: a turn's end (the
        // spinner goes, the answer's last line moves to the transcript) would then lift the
        // status line off the bottom, whenever the streaming frame had been painted.
        <Box>
          <Spinner
            label={exiting ? "ending session" : phase.kind === "busy" ? phase.label : "working"}
            since={phase.kind === "busy" && !exiting ? phase.since : (taskStartedAt ?? Date.now())}
            hint={exiting ? undefined : "esc to interrupt"}
            width={width}
          />
        </Box>
      ) : opening ? (
        <Box>
          <Spinner label={opening.label} since={opening.since} hint="ctrl+d quits" width={width} />
        </Box>
      ) : null}
    </>
  );
}
