/**
 * Images the user attaches to a prompt: `@path` mentions of image files (typed or pasted in the
 * TUI), `keel run --image FILE` and an ACP editor's image blocks. The user named the file, so —
 * unlike the model's read_file, which stays confined to the project (tools/paths.ts) — it may
 * be anywhere (a screenshot on ~/Desktop, `~/` expanded). Only text the user typed is scanned
 * for mentions (commands/turn-entry.ts picks it): piped input, an editor's embedded file, a
 * command's body or an MCP prompt's text is a file's or a server's, and its `@shot.png` stays
 * text. A named file must still not be barred from reading for the model: KEEL_HOME
 * (the provider config and key) and every file a Read deny/ask rule covers (read-barred.ts).
 * Then the format (by the file's first bytes: only an image's bytes are ever sent) and size
 * checks of base/image.ts. A model without `vision` in data/models.json gets nothing: the turn
 * is refused with a message naming the model and that file.
 */
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { IMAGE_MAX_BYTES, IMAGE_NAME, imageAttachment, resolveHome } from "../base/index.js";
import { modelTakesImages } from "../llm/index.js";
import { displayPath } from "../tools/index.js";
import type { ReadBarTest } from "./pipeline/index.js";
import type { InlineImage } from "./types.js";

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
  for (const m of withoutCode.matchAll(/(^|\s)@(?:"([^"\n]+)"|((?:\.{1,2}\/|\/|~\/)?[\w./-]+))/g)) {
    const path = m[2] ?? (m[3] ?? "").replace(/[.,;:]+$/, "");
    if (IMAGE_NAME.test(path) && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * Reads the images named by `@path` mentions in `typed` (only what the user typed: the caller
 * leaves out piped and expanded text) and by `explicit` (--image), for `model`. Any one that
 * cannot be sent refuses them all: a prompt never goes half-attached.
 */
export function promptImages(opts: {
  typed: string;
  explicit?: readonly string[];
  model: string;
  projectDir: string;
  readBarred: ReadBarTest;
  /** For `~/` (HOME); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Images given as bytes (an ACP editor's image blocks): no path, the same format checks. */
  inline?: readonly InlineImage[];
}): PromptImages {
  const paths = [...imageMentions(opts.typed)];
  for (const p of opts.explicit ?? []) if (!paths.includes(p)) paths.push(p);
  const inline = opts.inline ?? [];
  if (paths.length === 0 && inline.length === 0) return { ok: true, images: [] };
  if (!modelTakesImages(opts.model)) {
    const list = [...paths, ...inline.map(inlineName)].join(", ");
    return { ok: false, error: `Image ${list}: ${noVisionMessage(opts.model)}` };
  }
  const images: string[] = [];
  for (const given of inline) {
    const name = `image: ${inlineName(given)}`;
    // Checked on the base64's length, before decoding: a huge block is never decoded whole.
    if (Math.floor((given.data.length * 3) / 4) > IMAGE_MAX_BYTES + 2) {
      return {
        ok: false,
        error: `${name} is more than the ${IMAGE_MAX_BYTES}-byte limit for images.`,
      };
    }
    const read = imageAttachment(name, Buffer.from(given.data, "base64"));
    if (!read.ok) return { ok: false, error: read.error };
    images.push(read.image.dataUrl);
  }
  for (const input of paths) {
    const where = userPath(opts.projectDir, input, opts.env ?? process.env);
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

/** How an inline image is named in messages: its source, else what it claims to be. */
function inlineName(image: InlineImage): string {
  return image.name ?? `(${image.mimeType ?? "an image"} attached to the prompt)`;
}

/** A path the user typed: `~/` is their home, a relative one is the project's; anywhere. */
function userPath(
  projectDir: string,
  input: string,
  env: NodeJS.ProcessEnv,
): { ok: true; abs: string; rel: string } | { ok: false; error: string } {
  if (input.includes("\0")) return { ok: false, error: "image: the path contains a NUL byte." };
  const abs =
    input === "~" || input.startsWith("~/")
      ? join(resolveHome(env), input.slice(1))
      : isAbsolute(input)
        ? resolve(input)
        : resolve(projectDir, input);
  // Project-relative inside the project, absolute outside it: what errors show.
  return { ok: true, abs, rel: displayPath(projectDir, abs) };
}
