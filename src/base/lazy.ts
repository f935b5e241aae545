/**
 * A value built on first use. Zod schemas are built this way: constructing them (and loading
 * zod, which the CLI bundle defers until first use) costs start-up time in commands that never
 * parse what they describe, such as `keel hooks list` in a project without hook files.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
