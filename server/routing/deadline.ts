/**
 * Runs `work` with an AbortSignal that fires after `ms`, and gives up on it at the same moment
 * even if the work ignores the signal: a hanging provider never holds a request past its deadline.
 * The caller hears of the timeout first; tearing the abandoned work down (aborting its connection)
 * waits for the next turn of the event loop, so an answer built from what arrived goes out first.
 */
export function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  const controller = new AbortController();
  return raceDeadline(
    ms,
    () => work(controller.signal),
    () => {
      const error = onTimeout();
      setImmediate(() => controller.abort(error));
      return error;
    },
  );
}

/**
 * Gives up on `work` after `ms` with `onTimeout()`'s error. For work that has nothing to abort
 * (a request's whole handling): one timer, no AbortController.
 */
export function raceDeadline<T>(ms: number, work: () => Promise<T>, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const running = work();
    const timer = setTimeout(() => reject(onTimeout()), ms);
    running.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
