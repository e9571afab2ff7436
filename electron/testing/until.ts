/**
 * Test support: polls `check` every 50 ms until it gives a value (not undefined), or fails after
 * `timeoutMs`, naming `what` it waited for.
 */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 120_000, what = 'a state'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
