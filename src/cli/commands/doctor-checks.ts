/**
 * The checks behind `keel doctor`, each a function returning findings (never throwing), so they
 * are tested one by one: Node version, configuration and key, endpoint, hook sources.
 */
import { stat } from "node:fs/promises";
import { createHookEngine, nativeSpawnAvailable, validateHooks } from "../../hooks/index.js";
import type { HookListing } from "../../hooks/types.js";
import { chatCompletionsUrl } from "../../llm/client.js";
import type { LlmConfig } from "../../llm/config.js";
import { sandboxStatus } from "../../tools/sandbox.js";
import { loadConfig } from "../llm-config.js";
import { summaryLine } from "./hooks-render.js";

/** One line of the report. */
export interface Finding {
  status: "ok" | "warn" | "fail" | "skip";
  check: string;
  detail: string;
}

/** The minimum Node version (package.json `engines`). */
export const MIN_NODE = [22, 12] as const;

/** Node must be at least MIN_NODE. */
export function checkNode(version: string = process.versions.node): Finding {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    status: ok ? "ok" : "fail",
    check: "node",
    detail: `Node.js v${version}${ok ? "" : ` is too old; Keel needs ${MIN_NODE.join(".")} or newer`}`,
  };
}

/** Whether the OS sandbox (bubblewrap) works here; without it every shell command asks. */
export function checkSandbox(env: NodeJS.ProcessEnv = process.env): Finding {
  const s = sandboxStatus(env);
  return s.available
    ? {
        status: "ok",
        check: "sandbox",
        detail: `bubblewrap at ${s.bwrap}: read-only commands run without asking, sandboxed`,
      }
    : {
        status: "warn",
        check: "sandbox",
        detail: `${s.reason}; without it Keel approves no shell command on its own (every one asks)`,
      };
}

/** How hook processes start: the native spawner, or child_process.spawn where it is not built. */
export function checkHookSpawner(
  loaded: boolean = nativeSpawnAvailable(),
  platform: NodeJS.Platform = process.platform,
): Finding {
  if (loaded) {
    return {
      status: "ok",
      check: "spawner",
      detail: "hooks start by vfork (native spawner built)",
    };
  }
  return platform !== "linux"
    ? {
        status: "skip",
        check: "spawner",
        detail: "hooks start through child_process.spawn (the native spawner is Linux-only)",
      }
    : {
        status: "warn",
        check: "spawner",
        detail:
          "native spawner not built: each hook forks Keel (~1–1.5 ms more per hook); `npm run build` builds it where a C compiler is (Linux)",
      };
}

/** The last four characters of a key, never more. */
export function maskedSuffix(key: string): string {
  const k = key.trim();
  return k.length <= 8 ? "…" : `…${k.slice(-4)}`;
}

/** Loads the configuration and checks the key (shown masked) and the config file's mode. */
export async function checkConfig(opts: {
  keelHome: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ findings: Finding[]; config: LlmConfig | null }> {
  const loaded = await loadConfig({ keelHome: opts.keelHome, env: opts.env });
  if (!loaded.ok) {
    return { findings: [{ status: "fail", check: "config", detail: loaded.error }], config: null };
  }
  const c = loaded.config;
  const exists = await stat(c.path).then(
    (s) => s.isFile(),
    () => false,
  );
  // A file that is not there is not ticked: the settings come from defaults and the environment.
  const findings: Finding[] = [
    exists
      ? {
          status: "ok",
          check: "config",
          detail: `${c.path} · model ${c.model} · base URL ${c.baseUrl}`,
        }
      : {
          status: "skip",
          check: "config",
          detail: `no ${c.path} (defaults and environment: model ${c.model} · base URL ${c.baseUrl}); \`keel\` creates it on first run`,
        },
  ];
  if (c.apiKey === null) {
    findings.push({
      status: "fail",
      check: "api key",
      detail: "no API key: set DEEPSEEK_API_KEY, or run `keel` once to save one",
    });
  } else {
    const from = c.sources.apiKey === "env" ? "DEEPSEEK_API_KEY" : "config.json";
    findings.push({
      status: "ok",
      check: "api key",
      detail: `from ${from} (${maskedSuffix(c.apiKey)})`,
    });
  }
  if (c.sources.apiKey === "file") {
    const mode = await stat(c.path).then(
      (s) => s.mode & 0o777,
      () => null,
    );
    if (mode !== null && (mode & 0o077) !== 0) {
      findings.push({
        status: "warn",
        check: "config",
        detail: `${c.path} holds the key but is readable by others (mode ${mode.toString(8)}); chmod 600 it`,
      });
    }
  }
  return { findings, config: c };
}

/**
 * Sends one cheap request (GET <base>/models, no tokens spent) with a short timeout. A
 * rejected key fails; any other HTTP answer proves the endpoint is reachable. When the answer
 * lists models, a second finding says whether the configured model is among them: a typo in
 * `model` or KEEL_MODEL otherwise shows only as an error on the first prompt.
 */
export async function checkEndpoint(opts: {
  config: LlmConfig | null;
  offline: boolean;
  timeoutMs?: number;
  fetchFn?: typeof fetch;
}): Promise<Finding[]> {
  const check = "endpoint";
  const c = opts.config;
  if (opts.offline) return [{ status: "skip", check, detail: "skipped (--offline)" }];
  if (!c) return [{ status: "skip", check, detail: "skipped: no valid configuration" }];
  if (c.apiKey === null) return [{ status: "skip", check, detail: "skipped: no API key" }];
  const url = chatCompletionsUrl(c.baseUrl).replace(/\/chat\/completions$/, "/models");
  const started = Date.now();
  try {
    const res = await (opts.fetchFn ?? fetch)(url, {
      headers: { authorization: `Bearer ${c.apiKey}` },
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
      redirect: "manual",
    });
    const ms = Date.now() - started;
    if (!res.ok) await res.body?.cancel().catch(() => {});
    if (res.status === 401 || res.status === 403) {
      return [
        { status: "fail", check, detail: `${url}: the key was rejected (HTTP ${res.status})` },
      ];
    }
    if (res.ok) {
      const body = await res.text().catch(() => "");
      const model = checkModelListed(body, c.model);
      return [
        { status: "ok", check, detail: `${url}: HTTP ${res.status} in ${ms} ms` },
        ...(model ? [model] : []),
      ];
    }
    return [
      {
        status: "warn",
        check,
        detail: `${url}: reachable, but answered HTTP ${res.status} (${ms} ms)`,
      },
    ];
  } catch (err) {
    const why =
      err instanceof Error && err.name === "TimeoutError"
        ? `no answer within ${opts.timeoutMs ?? 5000} ms`
        : describeFetchError(err);
    return [{ status: "fail", check, detail: `${url}: unreachable (${why})` }];
  }
}

/**
 * Whether `model` is in an OpenAI-style `/models` answer (`{"data": [{"id": ...}]}`). Null when
 * the answer is not such a list (some endpoints answer differently; nothing to say then). A
 * missing model is a warning, not a failure: a proxy may serve models it does not list.
 */
export function checkModelListed(body: string, model: string): Finding | null {
  let ids: string[];
  try {
    const parsed: unknown = JSON.parse(body);
    const data = (parsed as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return null;
    ids = data
      .map((m) => (m as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === "string");
  } catch {
    return null;
  }
  if (ids.length === 0) return null;
  if (ids.includes(model)) return { status: "ok", check: "model", detail: `${model} is served` };
  const listed = ids.length > 8 ? `${ids.slice(0, 8).join(", ")}, …` : ids.join(", ");
  return {
    status: "warn",
    check: "model",
    detail: `${model} is not among the endpoint's models (${listed}); set "model" in config.json, KEEL_MODEL or --model`,
  };
}

function describeFetchError(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause;
    if (cause instanceof Error && "code" in cause) return `${String(cause.code)}: ${cause.message}`;
    return err.message;
  }
  return String(err);
}

/** Loads every hook source the way a session would and reports problems and trust. */
export async function checkHooks(opts: {
  projectDir: string;
  keelHome: string;
  env: NodeJS.ProcessEnv;
  display: (path: string) => string;
}): Promise<Finding[]> {
  let listing: HookListing;
  try {
    const engine = await createHookEngine({
      projectDir: opts.projectDir,
      keelHome: opts.keelHome,
      env: opts.env,
    });
    listing = engine.listing();
  } catch (err) {
    return [
      {
        status: "fail",
        check: "hooks",
        detail: `could not load hooks: ${err instanceof Error ? err.message : String(err)}`,
      },
    ];
  }
  const problems = await validateHooks(listing, { projectDir: opts.projectDir, env: opts.env });
  // The summary's mark agrees with its counts: a ✓ beside "2 errors" reads as "fine".
  const worst = problems.some((p) => p.severity === "error")
    ? "fail"
    : problems.length > 0
      ? "warn"
      : "ok";
  const findings: Finding[] = [
    {
      status: worst,
      check: "hooks",
      detail:
        listing.sources.length === 0
          ? "no hook files"
          : `${summaryLine(listing)} (${listing.sources.map((s) => `${opts.display(s.path)} [${s.dialect}]`).join(", ")})`,
    },
  ];
  const seen = new Set<string>();
  for (const p of problems) {
    const where = `${opts.display(p.path)}${p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ""}` : ""}`;
    const text = `${where}: ${p.message}`;
    if (seen.has(text)) continue;
    seen.add(text);
    findings.push({
      status: p.severity === "error" ? "fail" : "warn",
      check: "hooks",
      detail: text,
    });
  }
  const trust = listing.projectTrust;
  if (trust.hasProjectHooks && !trust.trusted) {
    findings.push({
      status: "warn",
      check: "hooks",
      detail:
        "project hooks are not trusted and will not run (keel hooks trust, or answer the prompt in keel)",
    });
  }
  return findings;
}
