/**
 * Sandbox benchmark: what Keel's own approval of a read-only command costs, measured in one run.
 *
 *   npx tsx bench/sandbox/run.ts
 *
 * 1. an auto-approved `ls` through the shell tool inside bubblewrap vs the same call without
 *    the sandbox (medians of interleaved runs): the ratio, and the absolute difference
 * 2. the approval decision itself (shell parser + allowlist) per command, and the one-time
 *    cost of loading the parser
 *
 * Without a working bwrap it says so and exits 0 (nothing to measure).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { autoApprove } from "../../src/agent/permissions/auto-approve/index.js";
import { sandboxStatus } from "../../src/tools/sandbox.js";
import { createShellTool } from "../../src/tools/shell.js";

const N = Number(process.env.BENCH_N ?? 40);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const status = sandboxStatus();
if (!status.available) {
  console.log(`sandbox bench: skipped: ${status.reason}`);
  process.exit(0);
}

const project = mkdtempSync(join(tmpdir(), "keel-bench-sandbox-"));
for (let i = 0; i < 20; i++) writeFileSync(join(project, `f${i}.txt`), "x\n");
const tool = createShellTool({ cwd: project });
const signal = new AbortController().signal;

async function once(sandboxed: boolean): Promise<number> {
  const t = performance.now();
  const r = await tool.run({ command: "ls" }, { signal, sandboxed });
  const ms = performance.now() - t;
  if (r.isError || !r.content.includes("f19.txt")) throw new Error(`ls failed: ${r.content}`);
  return ms;
}

try {
  const loadStart = performance.now();
  autoApprove("ls");
  const loadMs = performance.now() - loadStart;
  const commands = ["ls", "git status", "sort -o x a", "cat a | grep b && find . -name '*.ts'"];
  const decideStart = performance.now();
  const M = 2000;
  for (let i = 0; i < M; i++) autoApprove(commands[i % commands.length] ?? "ls");
  const decideUs = ((performance.now() - decideStart) / M) * 1000;

  for (let i = 0; i < 3; i++) {
    await once(false);
    await once(true);
  }
  const bare: number[] = [];
  const boxed: number[] = [];
  for (let i = 0; i < N; i++) {
    // Interleaved, alternating which goes first, so drift hits both alike.
    if (i % 2 === 0) {
      bare.push(await once(false));
      boxed.push(await once(true));
    } else {
      boxed.push(await once(true));
      bare.push(await once(false));
    }
  }
  const b = median(bare);
  const s = median(boxed);
  console.log(`sandbox bench (N=${N}, ${status.bwrap})`);
  console.log(`  ls via the shell tool, bare       median ${b.toFixed(2)} ms`);
  console.log(`  ls via the shell tool, bubblewrap median ${s.toFixed(2)} ms`);
  console.log(
    `  ratio sandboxed / bare            ${(s / b).toFixed(2)}x  (+${(s - b).toFixed(2)} ms per call)`,
  );
  console.log(`  approval decision (parser + allowlist) ${decideUs.toFixed(1)} µs per command`);
  console.log(`  parser load (once per process)    ${loadMs.toFixed(0)} ms`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
