/**
 * A cheap, linear look at an HTML page before web_fetch hands it to turndown: how many tags it
 * has and how deeply they nest. turndown's time grows with the square of the nesting depth (500
 * levels took a second, 1,000 overflowed the stack after three) and about linearly with the tag
 * count (40,000 tags: three seconds), all of it synchronous, so a hostile page pinned `keel run`
 * at full CPU where not even SIGTERM was handled (attacks3/20). web-fetch.ts converts only pages
 * within the bounds below and shows the others as text with the tags stripped.
 */

/** Deepest nesting turndown is given (real pages stay well under a hundred levels). */
export const HTML_MAX_DEPTH = 256;

/** Most tags turndown is given (a long documentation page has a few thousand). */
export const HTML_MAX_TAGS = 25_000;

/** Elements that never have content: they open no level. */
const VOID = new Set(
  "area base br col embed hr img input link meta param source track wbr".split(" "),
);

/** Elements whose end tag may be left out and that the parser closes by itself when the next one
 *  opens (a run of `<p>` or `<li>` is a list, not a nesting): they open no level either. Nesting
 *  them needs an element between (`ul`, `table`, `div`), which does count. */
const SELF_CLOSING_BY_SIBLING = new Set(
  "p li dt dd tr td th option optgroup rb rt rp rtc".split(" "),
);

/** Tag count and the deepest nesting of start tags over end tags, in one pass with no regular
 *  expression that could backtrack: every `<` is looked at once and the scan jumps past each tag's
 *  `>` (or stops when there is none). An estimate, on the high side for sloppy pages. */
export function htmlShape(html: string): { tags: number; depth: number } {
  let tags = 0;
  let depth = 0;
  let deepest = 0;
  let at = html.indexOf("<");
  while (at >= 0) {
    if (html.startsWith("<!--", at)) {
      const end = html.indexOf("-->", at + 4);
      if (end < 0) break;
      at = html.indexOf("<", end + 3);
      continue;
    }
    const end = html.indexOf(">", at + 1);
    if (end < 0) break;
    const closing = html.charCodeAt(at + 1) === 47; // "/"
    const name = /^[a-zA-Z][a-zA-Z0-9-]*/.exec(html.slice(at + (closing ? 2 : 1), at + 34));
    if (name) {
      tags++;
      const tag = name[0].toLowerCase();
      const opens =
        !closing &&
        !VOID.has(tag) &&
        !SELF_CLOSING_BY_SIBLING.has(tag) &&
        html.charCodeAt(end - 1) !== 47; // "<x/>"
      if (opens) deepest = Math.max(deepest, ++depth);
      else if (closing && !VOID.has(tag) && !SELF_CLOSING_BY_SIBLING.has(tag)) {
        depth = Math.max(0, depth - 1);
      }
    }
    at = html.indexOf("<", end + 1);
  }
  return { tags, depth: deepest };
}
