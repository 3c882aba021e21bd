export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Checks every `everyMs` until `check` holds (a throw counts as not yet): the ms it took, or undefined past `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return Date.now() - started;
    await sleep(everyMs);
  }
  return undefined;
}
