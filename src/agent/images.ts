/**
 * Images the user attaches to a prompt: `@path` mentions of image files (typed or pasted in the
 * TUI) and `keel run --image FILE`. Each goes through the same checks as read_file — inside the
 * project, not barred by a Read deny/ask rule or KEEL_HOME (pipeline/read-barred.ts) — then the
 * format and size checks of base/image.ts. A model without `vision` in data/models.json gets
 * nothing: the turn is refused with a message naming the model and that file.
 */
import { readFileSync, statSync } from "node:fs";
import { IMAGE_MAX_BYTES, IMAGE_NAME, imageAttachment } from "../base/index.js";
import { modelTakesImages } from "../llm/index.js";
import { resolveInProject } from "../tools/index.js";
import type { ReadBarTest } from "./pipeline/index.js";

/** The images to send with the prompt, or why the turn cannot be sent. */
export type PromptImages = { ok: true; images: string[] } | { ok: false; error: string };

/** Why `model` gets no images: the one wording, for prompts and read_file alike. */
export function noVisionMessage(model: string): string {
  return `the model ${model} does not take images (it has no "vision": true in data/models.json); nothing was sent. Use a model that declares vision, or describe the image in words.`;
}

/** `@path` mentions in `text` whose names look like images, outside code spans, in order. */
export function imageMentions(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const out: string[] = [];
  // `@path`, or `@"path with spaces"` (what the TUI makes of a pasted screenshot's path).
  for (const m of withoutCode.matchAll(/(^|\s)@(?:"([^"\n]+)"|((?:\.{1,2}\/|\/)?[\w./-]+))/g)) {
    const path = m[2] ?? (m[3] ?? "").replace(/[.,;:]+$/, "");
    if (IMAGE_NAME.test(path) && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * Reads the images named by `@path` mentions in `prompt` and by `explicit` (--image), for
 * `model`. Any one that cannot be sent refuses them all: a prompt never goes half-attached.
 */
export function promptImages(opts: {
  prompt: string;
  explicit?: readonly string[];
  model: string;
  projectDir: string;
  readBarred: ReadBarTest;
}): PromptImages {
  const paths = [...imageMentions(opts.prompt)];
  for (const p of opts.explicit ?? []) if (!paths.includes(p)) paths.push(p);
  if (paths.length === 0) return { ok: true, images: [] };
  if (!modelTakesImages(opts.model)) {
    return { ok: false, error: `Image ${paths.join(", ")}: ${noVisionMessage(opts.model)}` };
  }
  const images: string[] = [];
  for (const input of paths) {
    const where = resolveInProject({ tool: "image", cwd: opts.projectDir, input, access: "read" });
    if (!where.ok) return { ok: false, error: where.error };
    const bar = opts.readBarred(where.abs);
    if (bar !== null) {
      return { ok: false, error: `image: ${where.rel} may not be read: ${bar.reason}.` };
    }
    let bytes: Buffer;
    try {
      const st = statSync(where.abs);
      if (!st.isFile()) return { ok: false, error: `image: ${where.rel} is not a regular file.` };
      // Checked before reading, so a huge file is never loaded whole.
      if (st.size > IMAGE_MAX_BYTES) {
        return {
          ok: false,
          error: `image: ${where.rel} is ${st.size} bytes, more than the ${IMAGE_MAX_BYTES}-byte limit for images.`,
        };
      }
      bytes = readFileSync(where.abs);
    } catch {
      return { ok: false, error: `image: ${where.rel} does not exist or cannot be read.` };
    }
    const read = imageAttachment(`image: ${where.rel}`, bytes);
    if (!read.ok) return { ok: false, error: read.error };
    images.push(read.image.dataUrl);
  }
  return { ok: true, images };
}
