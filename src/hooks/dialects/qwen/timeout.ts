/**
 * How Qwen Code reads a command hook's `timeout`. Up to 0.15 it handed the number to setTimeout
 * as is (milliseconds); 0.24 reads it in seconds (QwenLM/qwen-code#11615, "fix(core)!: read
 * command hook timeout in seconds"), except that a value of 1000 or more is still read as
 * milliseconds so that settings written for 0.15 keep working. Keel applies that same rule to
 * every `.qwen/settings.json`: a settings file does not say which release it was written for
 * (its `$version` numbers the settings layout, which Qwen migrates up and down independently of
 * hooks), and the rule gives the right answer for both releases' files except a 0.15 timeout
 * under one second, which Qwen 0.24 itself also reads as seconds.
 */

/** From this value up, a command hook's timeout is read as milliseconds (Qwen Code 0.24). */
export const QWEN_LEGACY_MS_FROM = 1000;

/** Qwen Code 0.24's default command-hook timeout, in seconds (0.15: 60 000 ms). */
export const QWEN_COMMAND_DEFAULT_SEC = 600;

/** A command hook's `timeout` as written in a Qwen settings file → seconds. */
export function qwenCommandTimeoutSec(written: number): number {
  return written >= QWEN_LEGACY_MS_FROM ? written / 1000 : written;
}
