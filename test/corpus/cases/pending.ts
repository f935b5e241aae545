/** Whether a dialect is in this tree yet: its cases stay `it.todo` (with this reason) until it is. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CHECKOUT } from "../harness.js";

/** The todo reason for a dialect folder not yet in src/hooks/dialects, else undefined. */
export function pendingDialect(folder: string, label: string): string | undefined {
  const dir = join(CHECKOUT, "src/hooks/dialects", folder);
  return existsSync(dir)
    ? undefined
    : `the ${label} dialect (src/hooks/dialects/${folder}) is not on main yet; these cases run once it lands`;
}
