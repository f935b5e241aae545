/** The filesystem seam of the file tools: the real one by default, replaceable in tests. */
import type { Dirent, Stats } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";

/** Filesystem calls the file tools make. Errors are thrown as Node errno errors. */
export interface FileOperations {
  stat(path: string): Promise<Stats>;
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: string): Promise<void>;
  mkdirp(path: string): Promise<void>;
  readdir(path: string): Promise<Dirent[]>;
}

/** The real filesystem. */
export const nodeFileOperations: FileOperations = {
  stat: (path) => stat(path),
  readFile: (path) => readFile(path),
  writeFile: (path, data) => writeFile(path, data, "utf8"),
  mkdirp: async (path) => {
    await mkdir(path, { recursive: true });
  },
  readdir: (path) => readdir(path, { withFileTypes: true }),
};

/** True when the bytes look binary (a NUL byte in the first 8 KiB). */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Tool options shared by the file tools. */
export interface FileToolOptions {
  ops?: FileOperations;
  /** Directories outside the project the read tools may also read. */
  extraReadDirs?: readonly string[];
}
