/** Adds to a map bounded at `bound` entries, dropping the oldest first; answers the value added. */
export function keep<K, V>(map: Map<K, V>, key: K, value: V, bound: number): V {
  if (map.size >= bound && !map.has(key)) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
}
