/** Small helpers of the hooks engine (the ones every layer uses live in src/base/). */

/** Each problem once (the same text at the same place is one problem). */
export function uniqueProblems<
  P extends {
    severity: string;
    path: string;
    line?: number;
    column?: number;
    field?: string;
    message: string;
  },
>(problems: readonly P[]): P[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify([p.severity, p.path, p.line, p.column, p.field, p.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
