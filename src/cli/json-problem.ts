/**
 * A JSON file that does not parse, said in one line with its place (`invalid JSON: trailing
 * comma at 3:1`), as hook files say it; V8's own message can quote the text over several lines
 * or name the wrong thing ("Expected double-quoted property name" for a trailing comma).
 */
import { readFile } from "node:fs/promises";
import { jsonProblemText } from "../base/index.js";

/** `<path>: invalid JSON: <what> at <line>:<column>`, or null when the file reads as JSON (or
 *  cannot be read, or nests too deep to scan). */
export async function jsonProblem(path: string): Promise<string | null> {
  const text = await readFile(path, "utf8").catch(() => null);
  const problem = text === null ? null : jsonProblemText(text);
  return problem === null ? null : `${path}: invalid JSON: ${problem}`;
}
