/**
 * An ACP prompt (content blocks) as a Keel turn takes it: one text, plus the image blocks'
 * bytes, which go through the same checks as `@shot.png` (src/agent/images.ts: a model without
 * vision refuses the turn, naming the model). Audio becomes a note saying it was not passed on,
 * and the model is never told something it did not get.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { InlineImage } from "../../agent/index.js";

/** Embedded text resources larger than this are cut (a prompt is not a way to ship a repo). */
const MAX_RESOURCE_CHARS = 200_000;

/** The prompt's text (text blocks as given, resources in labelled blocks, audio as a note)
 *  and its images. */
export function promptOf(blocks: readonly acp.ContentBlock[]): {
  text: string;
  /** The text blocks alone: what the user wrote (TurnOptions.typed). */
  typed: string;
  images: InlineImage[];
} {
  const parts: string[] = [];
  const typed: string[] = [];
  const images: InlineImage[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        typed.push(block.text);
        break;
      case "resource_link":
        parts.push(`[file: ${pathOf(block.uri)}${block.title ? ` (${block.title})` : ""}]`);
        break;
      case "resource": {
        const r = block.resource;
        if ("text" in r) {
          const text =
            r.text.length > MAX_RESOURCE_CHARS
              ? `${r.text.slice(0, MAX_RESOURCE_CHARS)}\n… (cut: ${r.text.length - MAX_RESOURCE_CHARS} more characters)`
              : r.text;
          parts.push(`<resource uri="${pathOf(r.uri)}">\n${text}\n</resource>`);
        } else {
          parts.push(`[binary resource ${pathOf(r.uri)} not passed on: Keel reads text only]`);
        }
        break;
      }
      case "image":
        images.push({
          data: block.data,
          mimeType: block.mimeType,
          ...(block.uri ? { name: pathOf(block.uri) } : {}),
        });
        break;
      case "audio":
        parts.push("[an audio clip was attached but not passed on: Keel takes text only]");
        break;
      default:
        break;
    }
  }
  return { text: parts.join("\n\n"), typed: typed.join("\n\n"), images };
}

/** A file URI as its path; other URIs as given. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
