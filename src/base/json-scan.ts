/**
 * A minimal JSON syntax checker that reports where the first error is. V8's JSON.parse
 * messages do not always carry a position ("Unexpected token '}', ... is not valid JSON").
 */

/** Offset of the first syntax error, or null when the text is valid JSON. */
export function jsonErrorOffset(text: string): number | null {
  return jsonSyntaxError(text)?.offset ?? null;
}

/** A string (to its closing quote, or to the end when unterminated) or one bracket. */
const STRING_OR_BRACKET = /"(?:[^"\\]|\\[\s\S]?)*"?|[[\]{}]/g;

/**
 * Offset where the nesting of arrays and objects first goes deeper than `max`, or null.
 * Linear and iterative, so it is safe on any input; run before anything recursive sees it.
 * The regular expression steps over strings and everything else but brackets: a loop in
 * JavaScript over each character of a settings file of a few KB is enough for V8 to optimize
 * it with TurboFan, which costs `keel hooks list` ~5 MB of memory (src/base/resolve-paths.ts,
 * childPath; test/cli/lazy-start.test.ts).
 */
export function jsonDepthExceeded(text: string, max: number): number | null {
  let depth = 0;
  for (const m of text.matchAll(STRING_OR_BRACKET)) {
    const c = m[0];
    if (c === "{" || c === "[") {
      depth++;
      if (depth > max) return m.index;
    } else if (c === "}" || c === "]") depth--;
  }
  return null;
}

/** The first syntax error of a JSON text, in words, or null when it is valid. Recursive:
 *  call only on text whose depth jsonDepthExceeded has bounded. */
export function jsonSyntaxError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] ?? "")) i++;
  };
  const fail = (why?: string): never => {
    const c = text[i];
    const reason =
      why ??
      (c === undefined
        ? "unexpected end of file"
        : `unexpected ${c === "'" ? "single quote (JSON strings use double quotes)" : JSON.stringify(c)}`);
    throw new ScanError(i, reason);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === "\\") {
        const e = text[i + 1] ?? "";
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("invalid \\u escape");
          i += 6;
        } else if ('"\\/bfnrt'.includes(e) && e !== "") i += 2;
        else {
          i++;
          fail("invalid escape in a string");
        }
      } else if ((c?.charCodeAt(0) ?? 0) < 0x20)
        fail("line break or control character inside a string");
      else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === "" || m[0] === "-") fail();
    i += m?.[0].length ?? 0;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === "}") fail("trailing comma");
        if (text[i] !== '"')
          fail(
            text[i] === undefined || text[i] === "'"
              ? undefined
              : "expected a double-quoted property name",
          );
        string();
        ws();
        if (text[i] !== ":") fail("expected ':' after the property name");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(text[i] === undefined ? undefined : "expected ',' or '}' (a missing comma?)");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === "]") fail("trailing comma");
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(text[i] === undefined ? undefined : "expected ',' or ']' (a missing comma?)");
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail("unexpected text after the end of the JSON value");
    return null;
  } catch (err) {
    if (err instanceof ScanError) return { offset: err.offset, reason: err.reason };
    throw err;
  }
}

class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`JSON syntax error at ${offset}: ${reason}`);
  }
}

/**
 * What is wrong with a JSON text, in one line with its place (`trailing comma at 3:1`), or
 * null when it parses or nests deeper than `maxDepth` (then only JSON.parse's word is left).
 * The one wording for every JSON file Keel reads: config.json, MCP servers, simulator scripts.
 */
export function jsonProblemText(text: string, maxDepth = 64): string | null {
  const body = text.replace(/^\uFEFF/, "");
  if (jsonDepthExceeded(body, maxDepth) !== null) return null;
  const err = jsonSyntaxError(body);
  if (!err) return null;
  const before = body.slice(0, err.offset);
  const line = before.split("\n").length;
  const column = err.offset - (before.lastIndexOf("\n") + 1) + 1;
  return `${err.reason} at ${line}:${column}`;
}
