/**
 * Field positions in JSON hook files are found by walking the JSON (positions.ts) instead of
 * loading the YAML parser: the same line and column the YAML parser gives, for every path.
 */

import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument } from "yaml";
import {
  createLocator,
  type FieldPath,
  jsonValueOffset,
} from "../../src/hooks/config/positions.js";

/** What the YAML parser says (the previous implementation for every file). */
function yamlPosition(text: string, path: FieldPath) {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false });
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as { range?: [number] } | undefined;
    if (node?.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

const FILE = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash|Edit", "hooks": [ { "type": "command", "command": "echo \\"}]\\" >&2", "timeout": 5 } ] },
      {"matcher":"Write","hooks":[{"type":"http","url":"http://127.0.0.1:9/x"},{"type":"command","command":"a\\\\b","args":["x", 2, true, null]}]}
    ],
    "Post\\u0054oolUse": [],
    "Stop": [ {"hooks": [ {"type": "command", "command": "x"} ]} ]
  },
  "dup": 1, "dup": {"a": [ [ ], { } ]},
  "disableAllHooks": false
}
`;

const PATHS: FieldPath[] = [
  [],
  ["hooks"],
  ["hooks", "PreToolUse"],
  ["hooks", "PreToolUse", 0],
  ["hooks", "PreToolUse", 0, "matcher"],
  ["hooks", "PreToolUse", 0, "hooks", 0, "command"],
  ["hooks", "PreToolUse", 0, "hooks", 0, "timeout"],
  ["hooks", "PreToolUse", 1, "hooks", 1, "args", 3],
  ["hooks", "PreToolUse", 1, "hooks", 1, "args", 9],
  ["hooks", "PreToolUse", 2, "matcher"],
  ["hooks", "PostToolUse"],
  ["hooks", "PostToolUse", 0],
  ["hooks", "Stop", 0, "hooks", 0, "type"],
  ["hooks", "Missing", 0, "type"],
  ["dup"],
  ["dup", "a"],
  ["disableAllHooks"],
  ["hooks", "PreToolUse", "notAnIndex"],
];

describe("JSON field positions", () => {
  it("match the YAML parser's for every path, present or missing", () => {
    const locate = createLocator(FILE);
    for (const path of PATHS)
      expect([path, locate(path)]).toEqual([path, yamlPosition(FILE, path)]);
  });

  it("a compact one-line file and an array root too", () => {
    for (const text of ['{"a":{"b":[1,{"c":"}"}]},"d":"x"}', '[ {"a": 1}, [2, 3] ]']) {
      const locate = createLocator(text);
      for (const path of [
        [],
        ["a"],
        ["a", "b", 1, "c"],
        ["d"],
        [0, "a"],
        [1, 1],
        [1, 5],
      ] as FieldPath[]) {
        expect([path, locate(path)]).toEqual([path, yamlPosition(text, path)]);
      }
    }
  });

  it("match the YAML parser's for every path of random documents, asked in any order", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? 2 + rand(3) : rand(5);
      if (kind === 0) return Array.from({ length: rand(5) }, () => value(depth + 1));
      if (kind === 1) {
        const o: Record<string, unknown> = {};
        for (let k = rand(5); k > 0; k--)
          o[["a", "b", "c", 'd"e', "hooks"][rand(5)] ?? "a"] = value(depth + 1);
        return o;
      }
      return [1.5, "x,]}", true, null, "é"][rand(5)];
    };
    const paths = (v: unknown, at: FieldPath, out: FieldPath[]) => {
      out.push(at);
      if (Array.isArray(v)) {
        v.forEach((x, i) => {
          paths(x, [...at, i], out);
        });
        out.push([...at, v.length]);
      } else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
        out.push([...at, "missing"]);
      }
      return out;
    };
    for (let doc = 0; doc < 60; doc++) {
      const v = { hooks: value(0) };
      const text = JSON.stringify(v, null, [0, 2, "\t"][doc % 3]);
      const all = paths(v, [], []);
      // In document order, then reversed: the cache must not depend on the order of questions.
      for (const order of [all, [...all].reverse()]) {
        const locate = createLocator(text);
        for (const path of order)
          expect([path, locate(path)]).toEqual([path, yamlPosition(text, path)]);
      }
    }
  });

  it("says null for a path that is not there", () => {
    expect(jsonValueOffset('{"a": [1]}', ["a", 1])).toBeNull();
    expect(jsonValueOffset('{"a": [1]}', ["b"])).toBeNull();
    expect(jsonValueOffset('{"a": 1}', ["a", "b"])).toBeNull();
    expect(jsonValueOffset('{"a": 1}', ["a"])).toBe(6);
  });

  it("YAML text still gets the YAML parser's positions", () => {
    const text = "agents:\n  root:\n    hooks:\n      pre_tool_use:\n        - cmd: x\n";
    const locate = createLocator(text);
    const path = ["agents", "root", "hooks", "pre_tool_use", 0, "cmd"];
    expect(locate(path)).toEqual(yamlPosition(text, path));
    expect(locate(path)).toEqual({ line: 5, column: 16 });
  });
});
