/**
 * Reasonix 1.x's `toolResult` text for each built-in tool, built from Keel's result (`content`
 * plus the tool's details) and the call's input — the texts Reasonix 1.38 hands its hooks
 * (measured with `npm run compat:reasonix`). The dialect applies them (`toolResponses` in its index.ts).
 */
import { resolve } from "node:path";
import { fields, type Input, type Response, str } from "../shared/response-fields.js";

function filePath(r: Response, input: Input): string {
  return typeof r.absolutePath === "string" ? r.absolutePath : resolve(str(input.path));
}

/** bash: the raw output (stdout then stderr), no exit-code line. */
export function reasonixBashResult(response: unknown): string {
  const r = fields(response);
  if (typeof r.stdout !== "string" && typeof r.stderr !== "string") return str(r.content);
  return str(r.stdout) + str(r.stderr);
}

/** write_file: `wrote <bytes> bytes to <absolute path>`. */
export function reasonixWriteResult(response: unknown, input: Input): string {
  const bytes = Buffer.byteLength(str(input.content), "utf8");
  return `wrote ${bytes} bytes to ${filePath(fields(response), input)}`;
}

/** read_file: `<n>→<line>\n` per line shown. */
export function reasonixReadResult(response: unknown): string {
  const r = fields(response);
  const text = str(r.text);
  const all = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  if (text === "") return "";
  const start = typeof r.from === "number" ? r.from : 1;
  const end = typeof r.to === "number" && r.to < all.length ? r.to : all.length;
  return all
    .slice(start - 1, end)
    .map((line, i) => `${start + i}→${line}\n`)
    .join("");
}

/** edit_file: `edited <absolute path>` and a receipt of the replacement. */
export function reasonixEditResult(response: unknown, input: Input): string {
  const r = fields(response);
  const oldString = str(input.old_string);
  const newString = str(input.new_string);
  const original = str(r.originalFile);
  const found = oldString === "" ? 1 : original.split(oldString).length - 1;
  const count = input.replace_all === true ? Math.max(found, 1) : 1;
  const lines = (s: string, sign: string) =>
    s === ""
      ? ""
      : `${s
          .replace(/\n$/, "")
          .split("\n")
          .map((l) => `${sign}${l}\n`)
          .join("")}`;
  let out = `edited ${filePath(r, input)}\nActual replacement receipt after write:\n`;
  for (let i = 1; i <= count; i++) {
    out += `@@ replacement ${i} of ${count} (${count} occurrence(s)) @@\n`;
    out += lines(oldString, "-") + lines(newString, "+");
  }
  return out;
}
