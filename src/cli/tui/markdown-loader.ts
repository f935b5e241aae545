/**
 * Loads the Markdown renderer (marked, highlight.js) after the first frame instead of at
 * start-up: the prompt shows sooner, and the first answer arrives long after the load finished.
 * Until then answers are shown as plain wrapped text.
 */
import { wordWrap } from "./format.js";
import { sanitize } from "./sanitize.js";

let render: typeof import("./markdown.js").renderMarkdown | null = null;
let loading: Promise<void> | null = null;

/** Starts loading the renderer (once); resolves when it is ready. */
export function loadMarkdown(): Promise<void> {
  loading ??= import("./markdown.js").then(
    (m) => {
      render = m.renderMarkdown;
    },
    () => {
      // Without the renderer answers stay plain text; nothing else depends on it.
    },
  );
  return loading;
}

/** `source` rendered as Markdown once the renderer is loaded, else sanitized and word-wrapped. */
export function markdownOrPlain(
  source: string,
  width: number,
  opts: { tableRowsShown?: number } = {},
): string {
  if (render) return render(source, width, opts);
  // Plain: a continued table's header and first rows were shown above.
  const shown = opts.tableRowsShown;
  const text =
    shown === undefined
      ? source
      : source
          .split("\n")
          .slice(2 + shown)
          .join("\n");
  return wordWrap(sanitize(text), Math.max(1, width));
}
