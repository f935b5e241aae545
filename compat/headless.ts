/**
 * How to start Claude Code and Codex headless and offline against their loopback simulators
 * (anthropic-sim.ts, responses-sim.ts): the environment, the config and the arguments, in one
 * place for the differential tests (run-claude.ts, run-codex.ts) and bench/peers/run.ts, so a
 * flag a new release needs is found and fixed once.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A headless start: spawn the peer's command with its args followed by `args`, in `env`. */
export interface HeadlessStart {
  env: NodeJS.ProcessEnv;
  args: string[];
}

/**
 * `claude -p PROMPT --output-format json` in bypass mode against the Anthropic simulator at
 * `simUrl`. IS_SANDBOX lets --dangerously-skip-permissions run as root; the non-essential
 * traffic switch keeps it off the network (update checks, telemetry).
 */
export function claudeHeadless(o: { simUrl: string; home: string; prompt: string }): HeadlessStart {
  return {
    env: {
      PATH: process.env.PATH,
      HOME: o.home,
      LANG: "C.UTF-8",
      ANTHROPIC_BASE_URL: o.simUrl,
      ANTHROPIC_API_KEY: "sk-test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      IS_SANDBOX: "1",
    },
    args: ["-p", o.prompt, "--output-format", "json", "--dangerously-skip-permissions"],
  };
}

/**
 * `codex exec --json PROMPT` in bypass mode against the Responses simulator at `simUrl` (its
 * `/v1`). What codex 0.171 needs headless, found by running it: `CODEX_HOME` holding a
 * `config.toml` with a `[model_providers.sim]` entry (`wire_api = "responses"`, `env_key`) and
 * the project marked trusted (without which the project's `.codex` layer is not loaded); the
 * project a git repository (Codex finds the project root by its `.git`); a model Codex knows
 * (`gpt-5.5`: with an unknown one it offers no apply_patch tool); stdin not a pipe (it reads
 * one as more prompt); `--dangerously-bypass-hook-trust` (otherwise every non-managed hook
 * waits for a review); `--dangerously-bypass-approvals-and-sandbox` (Keel's
 * `--mode bypassPermissions`). It needs no network beyond the simulator. Writes the config
 * into `<home>/.codex`.
 */
export function codexHeadless(o: {
  simUrl: string;
  home: string;
  project: string;
  prompt: string;
}): HeadlessStart {
  const codexHome = join(o.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: o.project });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      'model = "gpt-5.5"',
      'model_provider = "sim"',
      "check_for_update_on_startup = false",
      "[model_providers.sim]",
      'name = "sim"',
      `base_url = "${o.simUrl}"`,
      'wire_api = "responses"',
      'env_key = "SIM_API_KEY"',
      `[projects."${o.project}"]`,
      'trust_level = "trusted"',
      "",
    ].join("\n"),
  );
  return {
    env: {
      PATH: process.env.PATH,
      HOME: o.home,
      CODEX_HOME: codexHome,
      SIM_API_KEY: "sk-test",
      LANG: "C.UTF-8",
    },
    args: [
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      "--dangerously-bypass-hook-trust",
      o.prompt,
    ],
  };
}
