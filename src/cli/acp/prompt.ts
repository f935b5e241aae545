/**
 * An ACP prompt (content blocks) as the one text a Keel turn takes. Keel's agent takes text
 * only (Agent.runTurn in src/agent/types.ts), so images and audio become a note saying they
 * were not passed on, and the model is never told something it did not get.
 */
import type * as acp from "@agentclientprotocol/sdk";

/** Embedded text resources larger than this are cut (a prompt is not a way to ship a repo). */
const MAX_RESOURCE_CHARS = 200_000;

/** The prompt's text: text blocks as given, resources in labelled blocks, the rest as notes. */
export function promptText(blocks: readonly acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
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
        parts.push(
          `[an image${block.uri ? ` (${pathOf(block.uri)})` : ""} was attached but not passed on: this Keel model takes text only]`,
        );
        break;
      case "audio":
        parts.push("[an audio clip was attached but not passed on: Keel takes text only]");
        break;
      default:
        break;
    }
  }
  return parts.join("\n\n");
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
