/**
 * Runs `work` with an AbortSignal that fires after `ms`, and gives up on it at the same moment
 * even if the work ignores the signal: a hanging provider never holds a request past its deadline.
 * The caller hears of the timeout first; tearing the abandoned work down (aborting its connection)
 * waits for the next turn of the event loop, so an answer built from what arrived goes out first.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = onTimeout();
      reject(error);
      setImmediate(() => controller.abort(error));
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
