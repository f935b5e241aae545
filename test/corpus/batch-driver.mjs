// One Node process that runs many corpus cases' `keel hooks trust` + `keel hooks test … --json`
// (test/corpus/batch.ts starts it). Each command goes through the built program's `main`, the
// function bin/keel.js hands `hooks test` and `hooks trust` to (runProgram), in the case's own
// environment and working directory, with its stdout, stderr and exit status captured as the
// binary's would be. Starting the built CLI twice per case was most of the corpus's time: ~0.3 s
// of CPU per start, 170 starts. The hooks themselves still run as real processes.
//
// Input: messages on the IPC channel, { checkout, cases: [{ id, cwd, env, runs }] } where `runs`
// are argument lists run in order. Output: one message per case as it finishes, { id, results:
// [{ code, stdout, stderr }] }. The process exits once the parent closes the channel.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The built program, as bin/keel.js loads it: the bundle, else tsc's output. */
async function loadMain(checkout) {
  for (const rel of ["dist/bundle/keel.mjs", "dist/cli/main.js"]) {
    const path = join(checkout, rel);
    if (existsSync(path)) return (await import(pathToFileURL(path).href)).main;
  }
  throw new Error(`${checkout} is not built: run \`npm run build\` there first`);
}

/** Makes the real environment (the C one too: os.homedir reads it) exactly `env`. */
function setEnvironment(env) {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) process.env[key] = value;
}

/** Runs `main(args)` with stdout and stderr captured and a fresh exit status. */
async function runCaptured(main, args) {
  let stdout = "";
  let stderr = "";
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = (chunk, ...rest) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    rest.find((x) => typeof x === "function")?.();
    return true;
  };
  process.stderr.write = (chunk, ...rest) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    rest.find((x) => typeof x === "function")?.();
    return true;
  };
  process.exitCode = undefined;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } catch (error) {
    // bin/keel.js would crash with the stack on stderr and exit status 1.
    return { code: 1, stdout, stderr: `${stderr}${error?.stack ?? error}\n` };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = undefined;
  }
}

/** Runs one message's cases in turn, answering each as it finishes. */
async function runCases({ checkout, cases }) {
  main ??= await loadMain(checkout);
  for (const c of cases) {
    setEnvironment(c.env);
    process.chdir(c.cwd);
    const results = [];
    for (const args of c.runs) {
      const r = await runCaptured(main, args);
      results.push(r);
      if (r.code !== 0 && args[1] === "trust") break;
    }
    await new Promise((done) => process.send({ id: c.id, results }, done));
  }
}

let main;
// Messages are run one after another; the driver ends when its parent closes the channel.
let queue = Promise.resolve();
process.on("message", (message) => {
  queue = queue.then(() => runCases(message));
});
process.on("disconnect", () => {
  queue.then(() => process.exit(0));
});
