import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyEventPayload } from "../../../src/hooks/events.js";
import { createHttpHandler } from "../../../src/hooks/handlers/http.js";
import type { HandlerRunRequest } from "../../../src/hooks/handlers/types.js";
import {
  type Connector,
  type ConnectRequest,
  nodeConnector,
} from "../../../src/hooks/ssrf-connect.js";
import type { ResolvedAddress } from "../../../src/hooks/ssrf-resolve.js";
import type { HttpHandlerConfig } from "../../../src/hooks/types.js";
import { handlerRequest } from "../../helpers/handler-request.js";

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

const DENY = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "no writes to .env",
  },
});
const ALLOW = JSON.stringify({
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" },
});

let server: Server;
let base: string;
let port: number;
const seen: Seen[] = [];
// Resolved when a request to /hang arrives, so cancellation tests wait for the event, not a clock.
let hangArrived: () => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      seen.push({
        path,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const json = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(body);
      };
      if (path === "/allow") return json(200, ALLOW);
      if (path === "/deny") return json(200, `  ${DENY}\n`);
      if (path === "/fail") return json(500, '{"error":"boom"}');
      if (path === "/empty") return json(200, "");
      if (path === "/no-content") return json(204, "");
      if (path === "/text") return json(200, "ok, logged");
      if (path === "/array") return json(200, "[1,2]");
      if (path === "/big") return json(200, JSON.stringify({ systemMessage: "x".repeat(5000) }));
      if (path === "/redirect") {
        res.writeHead(302, { location: "/deny" });
        return res.end();
      }
      if (path === "/hang") {
        hangArrived();
        return; // never answers
      }
      return json(200, "");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

const payload: AnyEventPayload = {
  hook_event_name: "PreToolUse",
  session_id: "sess-1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/proj",
  permission_mode: "default",
  tool_name: "write_file",
  tool_input: { path: "src/a.ts", content: "x", mode: 420, nested: { a: 1 } },
  tool_use_id: "call-1",
};

function request(
  handler: Partial<HttpHandlerConfig> & { url: string },
  over: Partial<HandlerRunRequest> = {},
): HandlerRunRequest {
  return handlerRequest(
    {
      id: "h1",
      handler: { type: "http", ...handler },
      source: { path: "/proj/.keel/settings.json", dialect: "keel", scope: "project" },
      projectDir: "/proj",
    },
    payload,
    over,
  );
}

function spyConnector(inner: Connector = nodeConnector) {
  const calls: ConnectRequest[] = [];
  const connector: Connector = (req) => {
    calls.push(req);
    return inner(req);
  };
  return { calls, connector };
}

function lastSeen(path: string): Seen | undefined {
  return seen.filter((s) => s.path === path).at(-1);
}

describe("http handler against a real server on 127.0.0.1", () => {
  const run = createHttpHandler();

  it("POSTs the payload JSON with Content-Type application/json", async () => {
    const result = await run(request({ url: `${base}/echo` }));
    expect(result).toMatchObject({ kind: "decided", outcome: "pass" });
    const got = lastSeen("/echo");
    expect(got?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(got?.body ?? "")).toEqual(payload);
  });

  it("hands a 2xx JSON body to decide.ts as exit 0 stdout (allow)", async () => {
    const result = await run(request({ url: `${base}/allow` }));
    expect(result).toMatchObject({
      kind: "raw",
      exitCode: 0,
      stdout: ALLOW,
      startError: null,
      timedOut: false,
    });
  });

  it("carries a deny decision in the raw result", async () => {
    const result = await run(request({ url: `${base}/deny` }));
    expect(result.kind).toBe("raw");
    expect(result.exitCode).toBe(0);
    const body: unknown = JSON.parse(result.stdout);
    expect(body).toMatchObject({
      hookSpecificOutput: {
        permissionDecision: "deny",
        permissionDecisionReason: "no writes to .env",
      },
    });
  });

  it("a 500 is a warning, never a block, even with a JSON body", async () => {
    const result = await run(request({ url: `${base}/fail` }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn", stdout: '{"error":"boom"}' });
    expect(result.kind === "decided" && result.message).toContain("HTTP 500");
  });

  it("an empty 2xx body passes (200 and 204)", async () => {
    for (const path of ["/empty", "/no-content"]) {
      const result = await run(request({ url: `${base}${path}` }));
      expect(result).toMatchObject({ kind: "decided", outcome: "pass", message: null });
    }
  });

  it("a 2xx body that is not a JSON object is a warning", async () => {
    for (const path of ["/text", "/array"]) {
      const result = await run(request({ url: `${base}${path}` }));
      expect(result).toMatchObject({ kind: "decided", outcome: "warn" });
    }
  });

  it("does not follow redirects: warning, and the target is never requested", async () => {
    const before = seen.filter((s) => s.path === "/deny").length;
    const result = await run(request({ url: `${base}/redirect` }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn" });
    expect(result.kind === "decided" && result.message).toContain(
      "redirect (HTTP 302 to /deny) not followed",
    );
    expect(seen.filter((s) => s.path === "/deny").length).toBe(before);
  });

  it("times out on a server that never answers", async () => {
    const result = await run(request({ url: `${base}/hang` }, { timeoutMs: 300 }));
    expect(result).toMatchObject({ kind: "decided", outcome: "timeout" });
  });

  it("is cancelled when the firing is aborted", async () => {
    const arrived = new Promise<void>((resolve) => {
      hangArrived = resolve;
    });
    const controller = new AbortController();
    const pending = run(request({ url: `${base}/hang` }, { signal: controller.signal }));
    await arrived;
    controller.abort();
    expect(await pending).toMatchObject({ kind: "decided", outcome: "cancelled" });
  });

  it("caps the response body and flags truncation", async () => {
    const result = await run(request({ url: `${base}/big` }, { maxOutputBytes: 1000 }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn", truncated: true });
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(1000);
  });

  it("expands headers only from allowedEnvVars and strips CR/LF/NUL", async () => {
    const result = await run(
      request(
        {
          url: `${base}/headers`,
          headers: {
            Authorization: "Bearer $TOKEN",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax under test
            "X-Braced": "${TOKEN}-x",
            "X-Secret": "[$SECRET]",
            "X-Inject": "a\r\nX-Evil: 1\u0000",
            "X-From-Env": "$MULTILINE",
            Host: "evil.example",
          },
          allowedEnvVars: ["TOKEN", "MULTILINE"],
        },
        { env: { TOKEN: "t0k", SECRET: "s3cret", MULTILINE: "v1\r\nX-Evil2: 2" } },
      ),
    );
    expect(result.kind === "decided" && result.outcome).toBe("pass");
    expect(result.stderr).toContain("Host");
    const got = lastSeen("/headers");
    expect(got?.headers.authorization).toBe("Bearer t0k");
    expect(got?.headers["x-braced"]).toBe("t0k-x");
    expect(got?.headers["x-secret"]).toBe("[]");
    expect(got?.headers["x-inject"]).toBe("aX-Evil: 1");
    expect(got?.headers["x-from-env"]).toBe("v1X-Evil2: 2");
    expect(got?.headers["x-evil"]).toBeUndefined();
    expect(got?.headers["x-evil2"]).toBeUndefined();
    expect(got?.headers.host).toBe(`127.0.0.1:${port}`);
    expect(JSON.stringify(got?.rawHeaders)).not.toContain("s3cret");
  });

  it("expands a payloadTemplate with $tool_input_<key>, $tool_name, $session_id, $timestamp", async () => {
    const template = {
      event: "$hook_event_name",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax under test
      text: "${tool_name} wrote $tool_input_path in $session_id",
      mode: "$tool_input_mode",
      missing: "$tool_input_nope",
      nested: "$tool_input_nested",
      at: "$timestamp",
      literal: "$HOME costs $5",
      list: ["$tool_use_id", 3, true, null],
    };
    const result = await run(
      request(
        { url: `${base}/template`, payloadTemplate: template },
        { env: { tool_name: "Write" } },
      ),
    );
    expect(result.kind === "decided" && result.outcome).toBe("pass");
    const body: unknown = JSON.parse(lastSeen("/template")?.body ?? "");
    expect(body).toMatchObject({
      event: "PreToolUse",
      text: "Write wrote src/a.ts in sess-1",
      mode: "420",
      missing: "",
      nested: "",
      literal: "$HOME costs $5",
      list: ["call-1", 3, true, null],
    });
    expect(JSON.stringify(body)).toMatch(/"at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/);
  });

  it("refuses a bad URL or scheme without connecting", async () => {
    const { calls, connector } = spyConnector();
    const guarded = createHttpHandler({ connector });
    for (const url of ["not a url", "file:///etc/passwd", "ftp://127.0.0.1/"]) {
      const result = await guarded(request({ url }));
      expect(result).toMatchObject({ kind: "decided", outcome: "error" });
    }
    expect(calls).toHaveLength(0);
  });

  it("keeps credentials and query strings out of messages", async () => {
    const result = await run(request({ url: `http://user:pw@127.0.0.1:${port}/fail?token=abc` }));
    expect(result.kind === "decided" && result.message).toContain(`http://127.0.0.1:${port}/fail`);
    expect(JSON.stringify(result)).not.toMatch(/pw@|token=abc/);
    expect(lastSeen("/fail")?.headers.authorization).toBe(
      `Basic ${Buffer.from("user:pw").toString("base64")}`,
    );
  });

  it("reaches ::1 when the machine has IPv6 loopback", async (ctx) => {
    const v6 = createServer((_req, res) => res.end(ALLOW));
    const ok = await new Promise<boolean>((resolve) => {
      v6.once("error", () => resolve(false));
      v6.listen(0, "::1", () => resolve(true));
    });
    if (!ok) ctx.skip();
    try {
      const p = (v6.address() as AddressInfo).port;
      const result = await run(request({ url: `http://[::1]:${p}/` }));
      expect(result).toMatchObject({ kind: "raw", exitCode: 0, stdout: ALLOW });
    } finally {
      v6.close();
    }
  });
});

describe("http handler: SSRF guard before any connection", () => {
  const refusedUrls = [
    "http://10.0.0.1/hook",
    "http://167772161/hook",
    "http://012.0.0.1/hook",
    "http://192.168.1/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://100.100.100.200/",
    "http://100.64.0.1/",
    "http://0/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a00:1]/",
    "http://[64:ff9b::10.0.0.1]/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[::]/",
  ];
  it.each(refusedUrls)("%s is refused with an error naming the address", async (url) => {
    const { calls, connector } = spyConnector();
    const resolverCalls: string[] = [];
    const handler = createHttpHandler({
      connector,
      resolver: async (h) => {
        resolverCalls.push(h);
        return [];
      },
    });
    const result = await handler(request({ url }));
    expect(result).toMatchObject({ kind: "decided", outcome: "error" });
    const address = new URL(url).hostname.replace(/^\[|\]$/g, "");
    expect(result.kind === "decided" && result.message).toContain(address);
    expect(calls).toHaveLength(0);
    expect(resolverCalls).toHaveLength(0);
  });

  it("allows loopback spellings and connects to 127.0.0.1", async () => {
    for (const host of ["2130706433", "0177.0.0.1", "0x7f.1", "127.1"]) {
      const { calls, connector } = spyConnector();
      const result = await createHttpHandler({ connector })(
        request({ url: `http://${host}:${port}/allow` }),
      );
      expect(result).toMatchObject({ kind: "raw", stdout: ALLOW });
      expect(calls.map((c) => c.address)).toEqual(["127.0.0.1"]);
    }
  });

  it("rebinding: public then private answers are refused; the resolver is asked once", async () => {
    const { calls, connector } = spyConnector();
    const asked: string[] = [];
    const resolver = async (host: string): Promise<ResolvedAddress[]> => {
      asked.push(host);
      return [
        { address: "93.184.216.34", family: 4 },
        { address: "192.168.0.10", family: 4 },
      ];
    };
    const result = await createHttpHandler({ resolver, connector })(
      request({ url: "http://audit.example/hook" }),
    );
    expect(result).toMatchObject({ kind: "decided", outcome: "error" });
    expect(result.kind === "decided" && result.message).toContain("192.168.0.10");
    expect(asked).toEqual(["audit.example"]);
    expect(calls).toHaveLength(0);
  });

  it("the connector receives exactly the checked address; a second lookup would have been private", async () => {
    const answers = [
      [{ address: "93.184.216.34", family: 4 }],
      [{ address: "10.0.0.1", family: 4 }],
    ];
    let asked = 0;
    const resolver = async (): Promise<ResolvedAddress[]> => answers[Math.min(asked++, 1)] ?? [];
    const calls: ConnectRequest[] = [];
    // A fake connector: nothing leaves the machine for a public-looking address.
    const connector: Connector = async (req) => {
      calls.push(req);
      return { status: 200, location: null, body: ALLOW, truncated: false };
    };
    const result = await createHttpHandler({ resolver, connector })(
      request({ url: "https://audit.example/hook?k=1" }),
    );
    expect(result).toMatchObject({ kind: "raw", stdout: ALLOW });
    expect(asked).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.address).toBe("93.184.216.34");
    expect(calls[0]?.family).toBe(4);
    expect(calls[0]?.url.hostname).toBe("audit.example");
  });

  it("a resolved name is connected by address, with the name in the Host header", async () => {
    const { calls, connector } = spyConnector();
    const resolver = async (): Promise<ResolvedAddress[]> => [{ address: "127.0.0.1", family: 4 }];
    const result = await createHttpHandler({ resolver, connector })(
      request({ url: `http://audit.example:${port}/named` }),
    );
    expect(result).toMatchObject({ kind: "decided", outcome: "pass" });
    expect(calls[0]?.address).toBe("127.0.0.1");
    expect(lastSeen("/named")?.headers.host).toBe(`audit.example:${port}`);
  });

  it("allowPrivateNetworks lets a private address through to the connector", async () => {
    const calls: ConnectRequest[] = [];
    const connector: Connector = async (req) => {
      calls.push(req);
      return { status: 204, location: null, body: "", truncated: false };
    };
    const resolver = async (): Promise<ResolvedAddress[]> => [{ address: "10.1.2.3", family: 4 }];
    const handler = createHttpHandler({ resolver, connector });
    const refused = await handler(request({ url: "http://hooks.corp/x" }));
    expect(refused).toMatchObject({ outcome: "error" });
    const allowed = await handler(
      request({ url: "http://hooks.corp/x" }, { allowPrivateNetworks: true }),
    );
    expect(allowed).toMatchObject({ outcome: "pass" });
    expect(calls.map((c) => c.address)).toEqual(["10.1.2.3"]);
    const metadata = await handler(
      request({ url: "http://169.254.169.254/" }, { allowPrivateNetworks: true }),
    );
    expect(metadata).toMatchObject({ outcome: "error" });
  });

  it("an unresolvable name is a warning", async () => {
    const resolver = async (): Promise<ResolvedAddress[]> => {
      throw new Error("getaddrinfo ENOTFOUND audit.invalid");
    };
    const result = await createHttpHandler({ resolver })(request({ url: "http://audit.invalid/" }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn" });
    expect(result.kind === "decided" && result.message).toContain("ENOTFOUND");
  });

  it("a connection failure is a warning", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const p = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await createHttpHandler()(request({ url: `http://127.0.0.1:${p}/` }));
    expect(result).toMatchObject({ kind: "decided", outcome: "warn" });
  });
});
