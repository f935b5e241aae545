/** Reasoning tasks with answers a program can check (small on purpose: each run costs money). */

/** One task: the prompt and how to check the final answer. */
export interface ReasoningTask {
  id: string;
  prompt: string;
  /** The expected answer, compared after normalizing (lower case, no spaces or trailing dot). */
  answer: string;
}

const SUFFIX =
  "\n\nEnd your reply with a last line of the form `ANSWER: <answer>` and nothing after it.";

/** The task set. */
export const TASKS: readonly ReasoningTask[] = [
  { id: "mul", prompt: "What is 17 × 23?", answer: "391" },
  {
    id: "bat-ball",
    prompt:
      "A bat and a ball cost $1.10 in total. The bat costs $1.00 more than the ball. How many cents does the ball cost?",
    answer: "5",
  },
  {
    id: "walls",
    prompt:
      "If 3 workers build 3 walls in 3 days, how many days do 9 workers need to build 9 walls?",
    answer: "3",
  },
  {
    id: "letters",
    prompt: "How many times does the letter r occur in the word strawberry?",
    answer: "3",
  },
  {
    id: "boxes",
    prompt:
      "Three boxes are labelled Apples, Oranges and Mixed, and every label is wrong. You may take one fruit from one box without looking inside. From the box with which label must you take it to label all three boxes correctly? Answer with the label.",
    answer: "mixed",
  },
  { id: "sequence", prompt: "What number comes next: 2, 6, 12, 20, 30, …?", answer: "42" },
  {
    id: "clock",
    prompt:
      "At 3:15 on an analog clock, what is the smaller angle between the hour and minute hands, in degrees?",
    answer: "7.5",
  },
  {
    id: "siblings",
    prompt:
      "Sally has 3 brothers. Each of her brothers has 2 sisters. How many sisters does Sally have?",
    answer: "1",
  },
].map((t) => ({ ...t, prompt: `${t.prompt}${SUFFIX}` }));

/** Whether `reply` ends with the task's answer (`ANSWER: …`, else its last word). */
export function isCorrect(task: ReasoningTask, reply: string): boolean {
  const m = /ANSWER:\s*(.+?)\s*$/i.exec(reply.trim());
  const given = m?.[1] ?? reply.trim().split(/\s+/).at(-1) ?? "";
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[`*$°]|degrees?|cents?/g, "")
      .replace(/\s+/g, "")
      .replace(/\.$/, "");
  return norm(given) === norm(task.answer);
}
