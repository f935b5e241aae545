/**
 * Reading a file Keel keeps (a session, its lock, a checkpoint index or snapshot) without ever
 * blocking: opened O_NONBLOCK, so a FIFO put where the file should be cannot wait for a writer
 * forever (attacks3/27, 28), and refused unless it is a regular file. The same open as
 * readConfigTextSync (config-file.ts), but for callers that want the bytes or an error.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";

/** Thrown for a path that exists but is not a regular file. */
export class NotRegularFileError extends Error {
  override name = "NotRegularFileError";
  readonly code = "ENOTREG";
}

/** The file's bytes. Throws as readFileSync does (ENOENT…), and NotRegularFileError, whose
 *  message names the path, for a FIFO, device, socket or directory. */
export function readRegularFileSync(path: string): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) {
      throw new NotRegularFileError(
        `${path} is not a regular file (a FIFO, device or directory); not read`,
      );
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
