/**
 * The global usage log could not be appended to; the session file has the record. Not a session
 * write failure: the conversation is safe, only `keel stats` misses the request.
 */
export class UsageLogError extends Error {
  override name = "UsageLogError";
  constructor(path: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      `could not add to the usage log ${path} (${why}); the session is saved, \`keel stats\` will miss these requests`,
    );
  }
}
