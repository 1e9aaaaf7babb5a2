/**
 * The one poll-until helper of the tests: calls `probe` every 50 ms until it returns a truthy value
 * (which it returns) or `timeoutMs` has passed (then it throws, naming `what`).
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
