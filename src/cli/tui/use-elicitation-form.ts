/**
 * The state and keys of an MCP server's form (components/elicitation-form.tsx): which field is
 * asked, the answers so far, the text being typed, the cursor in a list and the choices picked.
 * Keys of one input chunk (a pasted answer and its Enter) see the state they changed, so the
 * state lives in a ref too.
 */
import { type Key, useInput, usePaste } from "ink";
import { useRef, useState } from "react";
import type { ElicitationAnswer } from "../../mcp/index.js";
import { checkValue, type FormField, parseTyped } from "./elicit-form.js";

/** The choices a multiple-choice field starts with: its default. */
function defaultPicks(field: FormField | undefined): readonly string[] {
  return Array.isArray(field?.default) ? (field.default as string[]) : [];
}

/** The index of the field's default among its options (0 when none). */
function defaultIndex(field: FormField | undefined): number {
  const i = field?.options?.findIndex((o) => o.value === field.default) ?? -1;
  return Math.max(0, i);
}

/** What the form is given. */
export interface FormInput {
  fields: readonly FormField[];
  onDone: (answer: ElicitationAnswer) => void;
  /** Why the form can only be declined. */
  unusable?: string | undefined;
  /** Whether it takes keys yet. */
  armed?: boolean | undefined;
}

/** The form's state for drawing; the keys are handled inside. */
export function useElicitationForm(props: FormInput) {
  const { fields } = props;
  const [step, setStepState] = useState(0);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [text, setText] = useState("");
  const [cursor, setCursorState] = useState(() => defaultIndex(fields[0]));
  const [picked, setPickedState] = useState<readonly string[]>(() => defaultPicks(fields[0]));
  const [problem, setProblem] = useState<string | null>(null);
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
  const goTo = (next: number) => {
    live.current.step = next;
    live.current.text = "";
    setStepState(next);
    setText("");
    setProblem(null);
    setCursor(() => defaultIndex(fields[next]));
    setPicked(defaultPicks(fields[next]));
  };
  const form: FormActions = {
    live: live.current,
    finish: (answer) => {
      if (live.current.done) return;
      live.current.done = true;
      props.onDone(answer);
    },
    answer: (value) => {
      const f = fields[live.current.step];
      if (!f) return;
      const next = { ...live.current.values };
      if (value === undefined) delete next[f.key];
      else next[f.key] = value;
      live.current.values = next;
      setValues(next);
      goTo(live.current.step + 1);
    },
    typeText: (chunk) => {
      const clean = chunk.replace(/[\x00-\x1f\x7f]/g, "");
      if (!clean) return;
      live.current.text += clean;
      setText(live.current.text);
      setProblem(null);
    },
    eraseText: () => {
      live.current.text = [...live.current.text].slice(0, -1).join("");
      setText(live.current.text);
    },
    setCursor,
    setPicked,
    setProblem,
  };

  const isActive = props.armed !== false;
  useInput((input, key) => onFormKey(props, form, input, key), { isActive });
  usePaste(
    (pasted) => {
      const f = fields[live.current.step];
      if (f && (f.kind === "text" || f.kind === "number" || f.kind === "integer")) {
        form.typeText(pasted);
      }
    },
    { isActive },
  );
  return { step, values, text, cursor, picked, problem };
}

/** What a key may do to the form. */
interface FormActions {
  live: {
    step: number;
    text: string;
    values: Record<string, unknown>;
    cursor: number;
    picked: readonly string[];
    done: boolean;
  };
  finish: (answer: ElicitationAnswer) => void;
  /** The current field's answer (undefined: not given); the next field follows. */
  answer: (value: unknown | undefined) => void;
  typeText: (chunk: string) => void;
  eraseText: () => void;
  setCursor: (next: (c: number) => number) => void;
  setPicked: (next: readonly string[]) => void;
  setProblem: (problem: string | null) => void;
}

function onFormKey(props: FormInput, form: FormActions, input: string, key: Key) {
  if (form.live.done || key.ctrl) return;
  if (key.escape) return form.finish({ action: "cancel" });
  const f = props.fields[form.live.step];
  if (!f) return onConfirmKey(props, form, input, key);
  if (f.kind === "choice" || f.kind === "multi") return onListKey(f, form, input, key);
  if (f.kind === "boolean") {
    if (input === "y" || input === "n") return form.answer(input === "y");
    if (key.return) return submitTyped(f, form);
    return;
  }
  if (key.return) return submitTyped(f, form);
  if (key.backspace || key.delete) return form.eraseText();
  if (key.meta || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return;
  // A chunk may hold a pasted answer and its Enter.
  const parts = input.split(/\r\n?|\n/);
  parts.forEach((part, i) => {
    form.typeText(part);
    if (i < parts.length - 1) {
      const current = props.fields[form.live.step];
      if (current) submitTyped(current, form);
    }
  });
}

/** The last step: send, decline. */
function onConfirmKey(props: FormInput, form: FormActions, input: string, key: Key) {
  if (key.return || input === "y") {
    if (props.unusable) return form.setProblem("this request can only be declined (n)");
    // URL mode asks no fields: accepting sends no content.
    return form.finish(
      props.fields.length === 0
        ? { action: "accept" }
        : { action: "accept", content: form.live.values },
    );
  }
  if (input === "n" || input === "d") return form.finish({ action: "decline" });
}

/** A choice (arrows or a digit, Enter) or a multiple choice (Space toggles, Enter confirms). */
function onListKey(f: FormField, form: FormActions, input: string, key: Key) {
  const n = f.options?.length ?? 0;
  if (key.upArrow) return form.setCursor((c) => (c + n - 1) % n);
  if (key.downArrow || key.tab) return form.setCursor((c) => (c + 1) % n);
  if (f.kind === "choice") {
    const digit = Number(input);
    if (Number.isInteger(digit) && digit >= 1 && digit <= n) {
      return form.answer(f.options?.[digit - 1]?.value);
    }
    if (key.return) return form.answer(f.options?.[form.live.cursor]?.value);
    return;
  }
  if (input === " ") {
    const v = f.options?.[form.live.cursor]?.value;
    if (v === undefined) return;
    form.setProblem(null);
    const p = form.live.picked;
    return form.setPicked(p.includes(v) ? p.filter((x) => x !== v) : [...p, v]);
  }
  if (key.return) {
    const p = form.live.picked;
    if (p.length === 0 && !f.required) return form.answer(undefined);
    const why = checkValue(f, p);
    return why ? form.setProblem(why) : form.answer([...p]);
  }
}

/** The typed text as the field's answer, or the problem with it. */
function submitTyped(f: FormField, form: FormActions) {
  const r = parseTyped(f, form.live.text);
  if ("error" in r) return form.setProblem(r.error);
  form.answer("skip" in r ? undefined : r.value);
}
