/**
 * An MCP server's question (elicitation) as a form, one field at a time: text and numbers are
 * typed (Enter keeps the server's default), yes/no is a key, a choice is picked from a list, a
 * multiple choice toggled with Space. The last step shows every answer: Enter sends them, n
 * declines, Esc cancels at any step. Everything the server wrote is shown sanitized.
 */
import { Box, Text } from "ink";
import wrapAnsi from "wrap-ansi";
import type { ElicitationAnswer } from "../../../mcp/index.js";
import { type FormField, showValue } from "../elicit-form.js";
import { clip } from "../format.js";
import { sanitize, sanitizeLine } from "../sanitize.js";
import { useElicitationForm } from "../use-elicitation-form.js";

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

/** The key hint under the form. */
function formHint(props: ElicitationFormProps, field: FormField | undefined): string {
  if (!field) {
    if (props.unusable) return "n decline · esc cancel";
    return props.url !== undefined && props.fields.length === 0
      ? "enter accept (open the URL yourself) · n decline · esc cancel"
      : "enter send · n decline · esc cancel";
  }
  if (field.kind === "choice") return "↑↓ or 1-9 choose · enter confirm · esc cancel";
  if (field.kind === "multi") return "↑↓ move · space toggle · enter confirm · esc cancel";
  if (field.kind === "boolean") {
    const keeps = field.default !== undefined || !field.required ? " · enter keeps" : "";
    return `y / n${keeps} · esc cancel`;
  }
  return "enter next · esc cancel";
}

/** Text fitted to the form: `line` cuts one line; `wrapped` wraps to at most `most` rows. */
function fitters(inner: number) {
  const line = (s: string) => clip(sanitizeLine(s), inner);
  // The question is read whole when it fits: wrapped, not cut.
  const wrapped = (text: string, most: number) => {
    const rows = wrapAnsi(sanitize(text).trim(), inner, { hard: true, trim: true }).split("\n");
    return rows.length <= most
      ? rows
      : [...rows.slice(0, most - 1), `${clip(rows[most - 1] ?? "", inner - 1)}…`];
  };
  return { line, wrapped };
}

/** Renders the form: the server's question, then the current field or, last, every answer. */
export function ElicitationForm(props: ElicitationFormProps) {
  const { fields, width } = props;
  const form = useElicitationForm(props);
  const field = fields[form.step];
  const inner = Math.max(20, width - 4);
  // Border, title, message, gap, field title and description, problem and hint: ten rows.
  const room = Math.max(3, (props.maxRows ?? 40) - 10);
  const fit = fitters(inner);
  // A third of the rows at most for the question.
  const messageRows = fit.wrapped(
    props.message,
    Math.max(2, Math.floor((props.maxRows ?? 40) / 3)),
  );
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={width}>
      <Text bold>{fit.line(`MCP server ${props.server} asks`)}</Text>
      {props.message ? <Text>{messageRows.join("\n")}</Text> : null}
      {props.url ? <Text color="cyan">{fit.line(props.url)}</Text> : null}
      {props.unusable ? <Text color="yellow">{fit.line(props.unusable)}</Text> : null}
      {field ? (
        <FieldView field={field} form={form} count={fields.length} inner={inner} room={room} />
      ) : (
        <AnswersView fields={fields} values={form.values} line={fit.line} room={room} />
      )}
      {form.problem ? <Text color="red">{form.problem}</Text> : null}
      <Text dimColor>
        {props.armed === false ? "(keys typed now are ignored)" : formHint(props, field)}
      </Text>
    </Box>
  );
}

/** The field being asked: its title, description, and its options or the text typed. */
function FieldView(p: {
  field: FormField;
  form: ReturnType<typeof useElicitationForm>;
  count: number;
  inner: number;
  room: number;
}) {
  const { field, form, inner } = p;
  const { line, wrapped } = fitters(inner);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text dimColor>{`${form.step + 1}/${p.count} `}</Text>
        <Text color="cyan">{line(field.title)}</Text>
        {field.required ? <Text dimColor> (required)</Text> : null}
      </Text>
      {field.description ? <Text dimColor>{wrapped(field.description, 2).join("\n")}</Text> : null}
      {field.kind === "choice" || field.kind === "multi" ? (
        <OptionList
          field={field}
          cursor={form.cursor}
          picked={form.picked}
          line={line}
          room={p.room}
        />
      ) : (
        <Text>
          {"❯ "}
          {clip(form.text, Math.max(1, inner - 4))}
          <Text inverse> </Text>
          {form.text === "" && field.default !== undefined ? (
            <Text dimColor>{` ${line(showValue(field, field.default))} (enter keeps it)`}</Text>
          ) : null}
        </Text>
      )}
    </Box>
  );
}

/** A choice's or multiple choice's options, as many as fit around the cursor. */
function OptionList(p: {
  field: FormField;
  cursor: number;
  picked: readonly string[];
  line: (s: string) => string;
  room: number;
}) {
  const { field, cursor } = p;
  const options = windowAround(field.options ?? [], cursor, p.room);
  return (
    <>
      {options.before > 0 ? <Text dimColor>{`  … ${options.before} more`}</Text> : null}
      {options.shown.map((o, k) => {
        const i = options.start + k;
        const mark =
          field.kind === "choice" ? `${i + 1}. ` : p.picked.includes(o.value) ? "[x] " : "[ ] ";
        return (
          <Text key={o.value} color={i === cursor ? "cyan" : undefined}>
            {i === cursor ? "❯ " : "  "}
            {mark}
            {p.line(o.label)}
          </Text>
        );
      })}
      {options.after > 0 ? <Text dimColor>{`  … ${options.after} more`}</Text> : null}
    </>
  );
}

/** The last step: every field with its answer. */
function AnswersView(p: {
  fields: readonly FormField[];
  values: Record<string, unknown>;
  line: (s: string) => string;
  room: number;
}) {
  const answers = windowAround(p.fields, 0, p.room);
  return (
    <Box flexDirection="column" marginTop={1}>
      {answers.shown.map((f) => (
        <Text key={f.key}>
          <Text dimColor>{`${p.line(f.title)}: `}</Text>
          {p.line(f.key in p.values ? showValue(f, p.values[f.key]) : "(not given)")}
        </Text>
      ))}
      {answers.after > 0 ? <Text dimColor>{`… ${answers.after} more answers`}</Text> : null}
    </Box>
  );
}
