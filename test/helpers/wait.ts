/**
 * Waiting for a condition instead of for a fixed time: a test that sleeps N ms and then checks
 * fails on a machine slower than the one it was written on, and one that checks a count of what
 * happened in N ms depends on the machine's speed both ways. `until` polls a probe until it
 * holds; its time limit is only a guard against a hang (generous, so a loaded machine never
 * reaches it while the condition is still on its way), and its error names what was awaited.
 */

export interface UntilOptions {
  /** The hang guard: how long before giving up (default 60 s). */
  timeoutMs?: number;
  /** Pause between probes (default 20 ms). */
  intervalMs?: number;
}

/** Resolves with the probe's first truthy value; throws `timed out waiting for <what>` at the guard. */
export async function until<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  options: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 60_000, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
