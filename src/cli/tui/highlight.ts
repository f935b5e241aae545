/**
 * Syntax colours for fenced code in answers: highlight.js (core plus the languages answers
 * mostly contain, so start-up does not load ~190 grammars) turned into terminal colours.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = {
  bash,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

// Foreground colours by highlight.js scope (the first part of the class name).
const COLOR: Record<string, number> = {
  keyword: 35,
  built_in: 36,
  type: 36,
  literal: 35,
  number: 33,
  string: 32,
  regexp: 32,
  symbol: 33,
  comment: 90,
  doc: 90,
  meta: 90,
  title: 34,
  attr: 36,
  attribute: 36,
  variable: 31,
  params: 39,
  addition: 32,
  deletion: 31,
  section: 34,
  tag: 34,
  name: 34,
  "selector-tag": 34,
};

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
};

/** Whether `lang` (a fence's info string) names a language this highlighter knows. */
export function knowsLanguage(lang: string): boolean {
  return hljs.getLanguage(lang) !== undefined;
}

/**
 * `code` with terminal colours, each line closing its own colour (the TUI lays lines out one by
 * one). Unknown languages come back uncoloured: a wrong guess reads worse than none.
 */
export function highlightCode(code: string, lang: string): string {
  if (!knowsLanguage(lang)) return code;
  let html: string;
  try {
    html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return code;
  }
  const stack: (number | undefined)[] = [];
  let out = "";
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|&[#\w]+;|[^<&]+/g)) {
    const piece = m[0];
    if (m[1] !== undefined) {
      const scope = m[1].replace(/^hljs-/, "").split(/[\s.]/)[0] ?? "";
      stack.push(COLOR[scope] ?? stack[stack.length - 1]);
    } else if (piece === "</span>") {
      stack.pop();
    } else {
      const text = ENTITIES[piece] ?? piece;
      const color = stack[stack.length - 1];
      out +=
        color === undefined
          ? text
          : text
              .split("\n")
              .map((line) => (line === "" ? "" : `\x1b[${color}m${line}\x1b[39m`))
              .join("\n");
    }
  }
  return out;
}
