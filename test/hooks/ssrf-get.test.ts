/**
 * guardedGet's redirect handling with a fake resolver and connector: with crossOrigin "report"
 * (web_fetch) a redirect to another origin is handed back unfollowed and its host is not even
 * looked up (a lookup of a name no rule saw already carries data out); same-origin redirects
 * are followed; a refused IP literal or scheme is refused outright. The CLI-level tests are in
 * test/cli/run-web.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type GuardedGetOptions, guardedGet } from "../../src/hooks/index.js";

/** A fake web: path → [status, location]; records lookups and requests. */
function fakeWeb(routes: Record<string, [number, string?]>) {
  const looked: string[] = [];
  const asked: string[] = [];
  const opts: GuardedGetOptions = {
    allowPrivateNetworks: false,
    allowLoopback: false,
    maxBytes: 10_000,
    timeoutMs: 5_000,
    maxRedirects: 5,
    crossOrigin: "report",
    signal: new AbortController().signal,
    resolver: async (hostname) => {
      looked.push(hostname);
      return [{ address: "93.184.216.34", family: 4 }];
    },
    connector: async (req) => {
      asked.push(req.url.href);
      const [status, location] = routes[req.url.pathname] ?? [200];
      return {
        status,
        location: location ?? null,
        contentType: "text/plain",
        body: "hi",
        truncated: false,
      };
    },
  };
  return { looked, asked, opts };
}

describe("guardedGet redirects", () => {
  it("reports a redirect to another host without looking the host up or connecting", async () => {
    const web = fakeWeb({ "/go": [302, "https://secret-data.attacker.example/x"] });
    const got = await guardedGet("https://docs.example/go", web.opts);
    expect(got).toMatchObject({
      ok: false,
      redirect: {
        from: "https://docs.example/go",
        to: "https://secret-data.attacker.example/x",
        status: 302,
      },
    });
    expect(web.looked).toEqual(["docs.example"]);
    expect(web.asked).toEqual(["https://docs.example/go"]);
  });

  it.each([
    ["another port", "https://docs.example:8443/x"],
    ["another scheme", "http://docs.example/x"],
    ["a subdomain", "https://www.docs.example/x"],
  ])("counts %s as another origin", async (_, to) => {
    const web = fakeWeb({ "/go": [301, to] });
    const got = await guardedGet("https://docs.example/go", web.opts);
    expect(got.ok === false && got.redirect?.to).toBe(to);
    expect(web.asked).toHaveLength(1);
  });

  it("follows same-origin redirects, each hop checked again", async () => {
    const web = fakeWeb({ "/a": [301, "/b"], "/b": [302, "https://docs.example/c"] });
    const got = await guardedGet("https://docs.example/a", web.opts);
    expect(got).toMatchObject({ ok: true, url: "https://docs.example/c", status: 200 });
    expect(web.asked).toEqual([
      "https://docs.example/a",
      "https://docs.example/b",
      "https://docs.example/c",
    ]);
    expect(web.looked).toEqual(["docs.example", "docs.example", "docs.example"]);
  });

  it("refuses a cross-origin target the guard would refuse anyway, with the guard's reason", async () => {
    const web = fakeWeb({
      "/meta": [302, "http://169.254.169.254/latest/meta-data/"],
      "/file": [302, "file:///etc/passwd"],
      "/creds": [302, "https://u:p@docs.example/x"],
    });
    const meta = await guardedGet("https://docs.example/meta", web.opts);
    expect(meta).toMatchObject({ ok: false, message: expect.stringMatching(/metadata address/) });
    expect("redirect" in meta).toBe(false);
    const file = await guardedGet("https://docs.example/file", web.opts);
    expect(file).toMatchObject({
      ok: false,
      message: expect.stringMatching(/only http and https/),
    });
    const creds = await guardedGet("https://docs.example/creds", web.opts);
    expect(creds).toMatchObject({
      ok: false,
      message: expect.stringMatching(/user name or password/),
    });
    expect(web.asked).toHaveLength(3);
  });

  it('with crossOrigin "follow" (the user\'s search provider) follows, the provider key kept to its origin', async () => {
    const web = fakeWeb({ "/s": [302, "https://mirror.example/t"] });
    const sent: Array<Record<string, string>> = [];
    const connector = web.opts.connector;
    const got = await guardedGet("https://search.example/s", {
      ...web.opts,
      crossOrigin: "follow",
      headers: { "x-key": "k1" },
      connector: async (req) => {
        sent.push(req.headers);
        return connector ? connector(req) : Promise.reject(new Error("no connector"));
      },
    });
    expect(got).toMatchObject({ ok: true, url: "https://mirror.example/t" });
    expect(sent.map((h) => h["x-key"])).toEqual(["k1", undefined]);
  });
});
