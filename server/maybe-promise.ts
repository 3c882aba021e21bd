/**
 * A value, or a promise of it when getting it took I/O. Hot paths answer at once when they can:
 * under Next every promise also pays for AsyncLocalStorage's hooks.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` at once when the value is there already, else when it arrives. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
