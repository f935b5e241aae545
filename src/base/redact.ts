/**
 * Secrets in URLs never reach a log, an error or the screen: `redactUrls` rewrites every URL in
 * a text with its userinfo as `***@` and each query value as `***` (`?token=***&a=***`).
 * The one redaction function: src/llm and src/hooks both use this one.
 */

const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s"'<>`]*)/gi;

function redactQuery(query: string): string {
  // query starts with "?": each `k=v` keeps its key, a bare part is hidden whole.
  return `?${query
    .slice(1)
    .split("&")
    .map((part) => {
      if (part === "") return part;
      const eq = part.indexOf("=");
      return eq >= 0 ? `${part.slice(0, eq)}=***` : "***";
    })
    .join("&")}`;
}

/** Every URL in `text` with its credentials and query values replaced by `***`. */
export function redactUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (_match, scheme: string, rest: string) => {
    let out = rest.replace(/^[^/?#@]*@/, "***@");
    const q = out.indexOf("?");
    if (q >= 0) {
      const hash = out.indexOf("#", q);
      const end = hash < 0 ? out.length : hash;
      out = out.slice(0, q) + redactQuery(out.slice(q, end)) + out.slice(end);
    }
    return scheme + out;
  });
}
