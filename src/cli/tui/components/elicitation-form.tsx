/**
 * An MCP server's question (elicitation) as a form, one field at a time: text and numbers are
 * typed (Enter keeps the server's default), yes/no is a key, a choice is picked from a list, a
 * multiple choice toggled with Space. The last step shows every answer: Enter sends them, n
 * declines, Esc cancels at any step. Everything the server wrote is shown sanitized.
 */
import { Box, Text, useInput, usePaste } from "ink";
import { useRef, useState } from "react";
import wrapAnsi from "wrap-ansi";
import type { ElicitationAnswer } from "../../../mcp/index.js";
import { checkValue, type FormField, parseTyped, showValue } from "../elicit-form.js";
import { clip } from "../format.js";
import { sanitize, sanitizeLine } from "../sanitize.js";

/** Props of {@link ElicitationForm}. */
export interface ElicitationFormProps {
  server: string;
  message: string;
  /** URL mode: the page the server asks the user to open. */
  url?: string;
  fields: readonly FormField[];
  /** Why the form can only be declined (a required field of a shape it cannot ask). */
  unusable?: string;
  width: number;
  onDone: (answer: ElicitationAnswer) => void;
  /** Whether it takes keys yet (use-armed.ts: type-ahead must not answer it). */
  armed?: boolean;
  /** Rows the form may take (a frame taller than the screen garbles the scrollback). */
  maxRows?: number;
}

/** Up to `room` items around `at`, and how many are left out before and after. */
export function windowAround<T>(items: readonly T[], at: number, room: number) {
  const size = Math.max(1, room);
  if (items.length <= size) return { shown: items, start: 0, before: 0, after: 0 };
  const start = Math.min(Math.max(0, at - Math.floor(size / 2)), items.length - size);
  return {
    shown: items.slice(start, start + size),
    start,
    before: start,
    after: items.length - start - size,
  };
}

/** The choices a multiple-choice field starts with: its default. */
function defaultPicks(field: FormField | undefined): readonly string[] {
  return Array.isArray(field?.default) ? (field.default as string[]) : [];
}

/** The index of the field's default among its options (0 when none). */
function defaultIndex(field: FormField | undefined): number {
  const i = field?.options?.findIndex((o) => o.value === field.default) ?? -1;
  return Math.max(0, i);
}

export function ElicitationForm(props: ElicitationFormProps) {
  const { fields, width, onDone } = props;
  const [step, setStepState] = useState(0);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [text, setText] = useState("");
  const [cursor, setCursorState] = useState(() => defaultIndex(fields[0]));
  const [picked, setPickedState] = useState<readonly string[]>(() => defaultPicks(fields[0]));
  const [problem, setProblem] = useState<string | null>(null);
  // Keys of one input chunk (a pasted answer and its Enter) see the state they changed.
  const live = useRef({
    step: 0,
    text: "",
    values: {} as Record<string, unknown>,
    cursor: defaultIndex(fields[0]),
    picked: defaultPicks(fields[0]),
    done: false,
  });
  const setCursor = (next: (c: number) => number) => {
    live.current.cursor = next(live.current.cursor);
    setCursorState(live.current.cursor);
  };
  const setPicked = (next: readonly string[]) => {
    live.current.picked = next;
    setPickedState(next);
  };
  const field = fields[step];
  const confirming = step >= fields.length;

  const finish = (answer: ElicitationAnswer) => {
    if (live.current.done) return;
    live.current.done = true;
    onDone(answer);
  };
  const goTo = (next: number) => {
    live.current.step = next;
    live.current.text = "";
    setStepState(next);
    setText("");
    setProblem(null);
    setCursor(() => defaultIndex(fields[next]));
    setPicked(defaultPicks(fields[next]));
  };
  const answer = (value: unknown | undefined) => {
    const f = fields[live.current.step];
    if (!f) return;
    const next = { ...live.current.values };
    if (value === undefined) delete next[f.key];
    else next[f.key] = value;
    live.current.values = next;
    setValues(next);
    goTo(live.current.step + 1);
  };
  const typeText = (chunk: string) => {
    const clean = chunk.replace(/[\x00-\x1f\x7f]/g, "");
    if (!clean) return;
    live.current.text += clean;
    setText(live.current.text);
    setProblem(null);
  };
  const submitTyped = () => {
    const f = fields[live.current.step];
    if (!f) return;
    const r = parseTyped(f, live.current.text);
    if ("error" in r) return setProblem(r.error);
    answer("skip" in r ? undefined : r.value);
  };

  useInput(
    (input, key) => {
      if (live.current.done || key.ctrl) return;
      if (key.escape) return finish({ action: "cancel" });
      const f = fields[live.current.step];
      if (!f) {
        // The last step: send, decline.
        if (key.return || input === "y") {
          if (props.unusable) return setProblem("this request can only be declined (n)");
          // URL mode asks no fields: accepting sends no content.
          return finish(
            fields.length === 0
              ? { action: "accept" }
              : { action: "accept", content: live.current.values },
          );
        }
        if (input === "n" || input === "d") return finish({ action: "decline" });
        return;
      }
      if (f.kind === "choice" || f.kind === "multi") {
        const n = f.options?.length ?? 0;
        if (key.upArrow) return setCursor((c) => (c + n - 1) % n);
        if (key.downArrow || key.tab) return setCursor((c) => (c + 1) % n);
        if (f.kind === "choice") {
          const digit = Number(input);
          if (Number.isInteger(digit) && digit >= 1 && digit <= n)
            return answer(f.options?.[digit - 1]?.value);
          if (key.return) return answer(f.options?.[live.current.cursor]?.value);
          return;
        }
        if (input === " ") {
          const v = f.options?.[live.current.cursor]?.value;
          if (v === undefined) return;
          setProblem(null);
          const p = live.current.picked;
          return setPicked(p.includes(v) ? p.filter((x) => x !== v) : [...p, v]);
        }
        if (key.return) {
          const p = live.current.picked;
          if (p.length === 0 && !f.required) return answer(undefined);
          const why = checkValue(f, p);
          return why ? setProblem(why) : answer([...p]);
        }
        return;
      }
      if (f.kind === "boolean") {
        if (input === "y" || input === "n") return answer(input === "y");
        if (key.return) return submitTyped();
        return;
      }
      if (key.return) return submitTyped();
      if (key.backspace || key.delete) {
        live.current.text = [...live.current.text].slice(0, -1).join("");
        return setText(live.current.text);
      }
      if (key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return;
      // A chunk may hold a pasted answer and its Enter.
      const parts = input.split(/\r\n?|\n/);
      parts.forEach((part, i) => {
        typeText(part);
        if (i < parts.length - 1) submitTyped();
      });
    },
    { isActive: props.armed !== false },
  );
  usePaste(
    (pasted) => {
      const f = fields[live.current.step];
      if (f && (f.kind === "text" || f.kind === "number" || f.kind === "integer")) typeText(pasted);
    },
    { isActive: props.armed !== false },
  );

  const inner = Math.max(20, width - 4);
  // Border, title, message, gap, field title and description, problem and hint: ten rows.
  const room = Math.max(3, (props.maxRows ?? 40) - 10);
  const options = windowAround(field?.options ?? [], cursor, room);
  // The question is read whole when it fits: wrapped, not cut (a third of the rows at most).
  const wrapped = (text: string, most: number) => {
    const rows = wrapAnsi(sanitize(text).trim(), inner, { hard: true, trim: true }).split("\n");
    return rows.length <= most
      ? rows
      : [...rows.slice(0, most - 1), `${clip(rows[most - 1] ?? "", inner - 1)}…`];
  };
  const messageRows = wrapped(props.message, Math.max(2, Math.floor((props.maxRows ?? 40) / 3)));
  const answers = windowAround(fields, 0, room);
  const line = (s: string) => clip(sanitizeLine(s), inner);
  const hint = confirming
    ? props.unusable
      ? "n decline · esc cancel"
      : props.url !== undefined && fields.length === 0
        ? "enter accept (open the URL yourself) · n decline · esc cancel"
        : "enter send · n decline · esc cancel"
    : field?.kind === "choice"
      ? "↑↓ or 1-9 choose · enter confirm · esc cancel"
      : field?.kind === "multi"
        ? "↑↓ move · space toggle · enter confirm · esc cancel"
        : field?.kind === "boolean"
          ? `y / n${field.default !== undefined || !field.required ? " · enter keeps" : ""} · esc cancel`
          : "enter next · esc cancel";

  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={width}>
      <Text bold>{line(`MCP server ${props.server} asks`)}</Text>
      {props.message ? <Text>{messageRows.join("\n")}</Text> : null}
      {props.url ? <Text color="cyan">{line(props.url)}</Text> : null}
      {props.unusable ? <Text color="yellow">{line(props.unusable)}</Text> : null}
      {field ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            <Text dimColor>{`${step + 1}/${fields.length} `}</Text>
            <Text color="cyan">{line(field.title)}</Text>
            {field.required ? <Text dimColor> (required)</Text> : null}
          </Text>
          {field.description ? (
            <Text dimColor>{wrapped(field.description, 2).join("\n")}</Text>
          ) : null}
          {field.kind === "choice" || field.kind === "multi" ? (
            <>
              {options.before > 0 ? <Text dimColor>{`  … ${options.before} more`}</Text> : null}
              {options.shown.map((o, k) => {
                const i = options.start + k;
                const mark =
                  field.kind === "choice"
                    ? `${i + 1}. `
                    : picked.includes(o.value)
                      ? "[x] "
                      : "[ ] ";
                return (
                  <Text key={o.value} color={i === cursor ? "cyan" : undefined}>
                    {i === cursor ? "❯ " : "  "}
                    {mark}
                    {line(o.label)}
                  </Text>
                );
              })}
              {options.after > 0 ? <Text dimColor>{`  … ${options.after} more`}</Text> : null}
            </>
          ) : (
            <Text>
              {"❯ "}
              {clip(text, Math.max(1, inner - 4))}
              <Text inverse> </Text>
              {text === "" && field.default !== undefined ? (
                <Text dimColor>{` ${line(showValue(field, field.default))} (enter keeps it)`}</Text>
              ) : null}
            </Text>
          )}
        </Box>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          {answers.shown.map((f) => (
            <Text key={f.key}>
              <Text dimColor>{`${line(f.title)}: `}</Text>
              {line(f.key in values ? showValue(f, values[f.key]) : "(not given)")}
            </Text>
          ))}
          {answers.after > 0 ? <Text dimColor>{`… ${answers.after} more answers`}</Text> : null}
        </Box>
      )}
      {problem ? <Text color="red">{problem}</Text> : null}
      <Text dimColor>{props.armed === false ? "(keys typed now are ignored)" : hint}</Text>
    </Box>
  );
}
