/**
 * todo_write (`TodoWrite` in Claude Code): the model keeps a checklist for multi-step work by
 * writing the WHOLE list each time. The list lives in the tool (one tool set per session) and is
 * reported as an event the TUI shows as a live checklist and `keel run --output-format
 * stream-json` prints. The model gets only a short confirmation: the list it just wrote is
 * already in its own message, so repeating it would only grow the log.
 */
import { z } from "zod";
import { defineTool, toolFrame } from "./define.js";
import type { TodoItem, Tool, ToolContext } from "./types.js";

/** Items a list may hold (a runaway list is refused, not truncated). */
export const TODO_MAX_ITEMS = 100;

const itemSchema = z.strictObject({
  content: z.string().min(1).max(500).describe('What to do, in the imperative ("Run the tests").'),
  status: z.enum(["pending", "in_progress", "completed"]),
  activeForm: z
    .string()
    .min(1)
    .max(500)
    .describe('The same in the present continuous ("Running the tests"), shown while it runs.'),
});

/** The todo_write tool's arguments. */
export const todoWriteSchema = z.strictObject({
  todos: z.array(itemSchema).max(TODO_MAX_ITEMS).describe("The whole updated list."),
});
export type TodoWriteInput = z.infer<typeof todoWriteSchema>;

const DESCRIPTION = `Keep a todo list for work with several steps; the user sees it as a live checklist.
- Send the whole list every time (it replaces the previous one).
- Mark an item in_progress before starting it (one at a time) and completed as soon as it is done.
- Skip it for a single, simple step.`;

/** The todo_write tool: its schema, description and facts. */
export const todoWriteTool = defineTool<TodoWriteInput>({
  name: "todo_write",
  description: DESCRIPTION,
  schema: todoWriteSchema,
  kind: "session",
  primaryArg: "todos",
  pathFields: [],
  sample: {
    todos: [{ content: "Run the tests", status: "in_progress", activeForm: "Running the tests" }],
  },
  create: (ctx) => createTodoWriteTool(ctx),
});

/** Creates the tool; its list is this tool set's (one per session). */
export function createTodoWriteTool(ctx: ToolContext): Tool<TodoWriteInput> & {
  /** The current list (a copy). */
  todos(): TodoItem[];
} {
  let current: TodoItem[] = [];
  return {
    ...toolFrame(todoWriteTool, ctx),
    todos: () => current.map((t) => ({ ...t })),
    run: async (input, opts) => {
      current = input.todos.map((t) => ({ ...t }));
      opts.onEvent?.({ type: "todos", todos: current.map((t) => ({ ...t })) });
      const count = (s: TodoItem["status"]) => current.filter((t) => t.status === s).length;
      return {
        content: `Todo list updated: ${current.length} item${current.length === 1 ? "" : "s"} (${count("completed")} completed, ${count("in_progress")} in progress, ${count("pending")} pending).`,
        isError: false,
        details: { todos: current.map((t) => ({ ...t })) },
      };
    },
  };
}
