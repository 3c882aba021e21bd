/**
 * What each key (a client) holds at once, at most `max`: `take(key, max)` answers the function that
 * gives one back, or undefined when the key already holds `max`. A key holding nothing is forgotten.
 */
export function slotsPerKey(): (key: string, max: number) => (() => void) | undefined {
  const held = new Map<string, number>();
  return (key, max) => {
    const open = held.get(key) ?? 0;
    if (open >= max) return undefined;
    held.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (held.get(key) ?? 1) - 1;
      if (left > 0) held.set(key, left);
      else held.delete(key);
    };
  };
}
