/**
 * What the front ends (keel run, the TUI) give the built-in tool set of one session beyond the
 * project: the web access from the user's settings (web-access.ts), the folder for background
 * jobs' output, beside the session's transcript (`<id>.jobs/`, 0700, files 0600), and whether
 * the model takes images (read_file's description says so only then).
 */

import { modelTakesImages } from "../llm/index.js";
import { type BuiltinToolOptions, defaultShellOperations, ShellJobs } from "../tools/index.js";
import { webAccessFor } from "./web-access.js";

/** The tool options of a session, and problems in the settings to show the user. */
export function sessionToolOptions(opts: {
  keelHome: string;
  transcriptPath: string;
  /** The session's model: whether it takes images is fixed into read_file's description. */
  model: string;
  env?: NodeJS.ProcessEnv;
}): { options: BuiltinToolOptions & { jobs: ShellJobs }; problems: string[] } {
  const { web, problems } = webAccessFor(opts.keelHome, opts.env);
  const jobsDir = `${opts.transcriptPath.replace(/\.jsonl$/, "")}.jobs`;
  // Made here rather than by the tool registry so the front end can list the jobs (/jobs).
  const jobs = new ShellJobs(jobsDir, defaultShellOperations.killGroup);
  const vision = modelTakesImages(opts.model);
  return { options: { web, jobsDir, jobs, ...(vision ? { vision } : {}) }, problems };
}
