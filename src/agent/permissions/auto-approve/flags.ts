/**
 * Option scanning for the allowlist. GNU getopt lets options follow operands, bundles short
 * options (`-uo/tmp/x` is `-u -o /tmp/x`) and accepts any unambiguous prefix of a long option
 * (`--outp=x` is `--output=x`); every check here assumes all three.
 */

/** The words before a `--` that ends options (after it, everything is an operand). */
export function optionWords(args: readonly string[]): string[] {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).filter((a) => a.startsWith("-") && a !== "-");
}

/**
 * The first option in `args` that is denied: a long option that is (a prefix of) one in
 * `long`, or a short-option bundle containing a letter of `short`.
 */
export function deniedOption(
  args: readonly string[],
  deny: { short?: string; long?: readonly string[] },
): string | undefined {
  for (const word of optionWords(args)) {
    if (word.startsWith("--")) {
      const name = word.slice(2).split("=")[0] ?? "";
      if (name.length === 0) continue;
      if (deny.long?.some((l) => l === name || (name.length >= 2 && l.startsWith(name)))) {
        return word;
      }
    } else if (deny.short && [...word.slice(1)].some((ch) => deny.short?.includes(ch))) {
      return word;
    }
  }
  return undefined;
}

/** Operands: words that are not options (a conservative count; option values count too). */
export function operands(args: readonly string[]): string[] {
  const end = args.indexOf("--");
  const before = (end === -1 ? args : args.slice(0, end)).filter(
    (a) => !a.startsWith("-") || a === "-",
  );
  return end === -1 ? before : [...before, ...args.slice(end + 1)];
}
