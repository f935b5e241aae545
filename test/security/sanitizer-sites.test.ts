/**
 * The sanitizer is a choke point (docs/security.md §8): code in src/cli/ writes to the
 * process's streams only through src/cli/stdout.ts (writeStdout / writeStderr, which pass the
 * one sanitizer, src/base/sanitize.ts), and JSON output only through sanitizeJson. This walks
 * src/cli/ and fails on any other write, so a new printer cannot skip it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const CLI = resolve(__dirname, "../../src/cli");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Source without comments, so a comment naming process.stdout is not a site. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

// A direct use of a process stream or the console: writing, or handing the stream to someone
// who writes (`{ stdout: process.stdout }`). Reading a property (isTTY, columns, rows) is fine.
// Also a stream from Ink's useStdout() (`stdout.write(`) and a raw write to fd 1 or 2.
const STREAM_USE =
  /\bprocess\.(?:stdout|stderr)(?!\.(?:isTTY|columns|rows|on|off|once|removeListener|listenerCount)\b)|\bconsole\.\w+|(?<![\w.])std(?:out|err)\.write\(|\bwriteSync\(\s*[12]\b/g;
// JSON text written out not through sanitizeJson (JSON.stringify leaves C1 and bidi raw).
const RAW_JSON_OUT = /(?:\.stdout|\.stderr|write|writeStdout|writeStderr)\([^;]*JSON\.stringify\(/g;

/**
 * The few sites that may touch a process stream directly, each with why. Keyed by file, with the
 * exact text of the use, so a new use in the same file still fails.
 */
const ALLOWED: Record<string, string[]> = {
  // The sink itself: sanitizes, then writes (and its EPIPE/EAGAIN handling).
  "stdout.ts": ["process.stderr", "process.stdout", "writeSync(1", "process.stdout"],
  // Clears the screen (Ink's stdout) with Keel's own constant CLEAR_SCREEN, no outside text.
  "tui/app.tsx": ["stdout.write(", "stdout.write("],
  // `keel acp` speaks JSON-RPC to an editor over stdout (the SDK writes the frames): a protocol
  // stream, not a terminal; text inside it is JSON-escaped by the SDK.
  "acp/server.ts": ["process.stdout"],
};

function sites(file: string): string[] {
  const text = code(readFileSync(file, "utf8"));
  return [...text.matchAll(STREAM_USE)].map((m) => m[0]);
}

describe("every write in src/cli/ goes through the sanitizing sink", () => {
  it("no file but the sink writes to process.stdout/stderr or the console", () => {
    const bad: string[] = [];
    for (const file of filesUnder(CLI)) {
      const rel = relative(CLI, file);
      const found = sites(file);
      const allowed = [...(ALLOWED[rel] ?? [])];
      for (const use of found) {
        const i = allowed.indexOf(use);
        if (i >= 0) allowed.splice(i, 1);
        else bad.push(`src/cli/${rel}: ${use}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("JSON output is written through sanitizeJson, never JSON.stringify", () => {
    const bad: string[] = [];
    for (const file of filesUnder(CLI)) {
      const text = code(readFileSync(file, "utf8"));
      for (const m of text.matchAll(RAW_JSON_OUT)) bad.push(`${relative(CLI, file)}: ${m[0]}`);
    }
    expect(bad).toEqual([]);
  });

  it("the sink passes what it writes through the one sanitizer", () => {
    const sink = readFileSync(join(CLI, "stdout.ts"), "utf8");
    expect(sink).toMatch(/import \{ sanitize \} from "\.\.\/base\/index\.js"/);
    expect(sink).toMatch(/writeStyledStdout\(sanitize\(text,/);
    expect(sink).toMatch(/process\.stderr\.write\(sanitize\(text,/);
  });

  it("the check can fail: a direct write, a stream handed over, console.log, raw JSON", () => {
    const probe = (src: string) => [...code(src).matchAll(STREAM_USE)].map((m) => m[0]);
    expect(probe("process.stdout.write(name);")).toEqual(["process.stdout"]);
    expect(probe("render(<App />, { stdout: process.stdout });")).toEqual(["process.stdout"]);
    expect(probe("console.log(x)")).toEqual(["console.log"]);
    expect(probe("const { stdout } = useStdout(); stdout.write(x);")).toEqual(["stdout.write("]);
    expect(probe("writeSync(2, x)")).toEqual(["writeSync(2"]);
    expect(probe("out.stdout(x); rawOut.stderr(x);")).toEqual([]);
    expect(probe("const w = process.stdout.columns; // process.stdout.write(x)")).toEqual([]);
    const rawJson = "out.stdout(`$" + "{JSON.stringify(x)}\\n`);";
    expect([...rawJson.matchAll(RAW_JSON_OUT)]).toHaveLength(1);
  });
});
