/** One measured run of a command under measure.py (wall, CPU, peak RSS), shared by the benches. */
import { spawn } from "node:child_process";
import { join } from "node:path";

const MEASURE = join(import.meta.dirname, "measure.py");

export interface Sample {
  code: number;
  wallMs: number;
  cpuMs: number;
  rssKb: number;
}

/** Runs `cmd` under measure.py (asynchronously: a simulator may answer from this process). */
export function measure(cmd: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Sample> {
  return new Promise((done, fail) => {
    const child = spawn("python3", [MEASURE, ...cmd], {
      env,
      cwd,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", fail);
    child.on("close", () => {
      try {
        done(JSON.parse(out) as Sample);
      } catch {
        fail(new Error(`measure.py printed ${JSON.stringify(out)} for ${cmd.join(" ")}`));
      }
    });
  });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
