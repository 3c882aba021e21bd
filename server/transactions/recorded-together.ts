/**
 * The events one write recorded share their `created_at` (Postgres' `now()` is its transaction's start),
 * so a run of consecutive events with the same time is one change. Pure: the public timeline and
 * support's view group the same way. `joins` may keep an event out of the run before it.
 */
export function recordedTogether<T>(
  events: readonly T[],
  at: (event: T) => number,
  joins: (run: readonly T[], event: T) => boolean = () => true,
): T[][] {
  const runs: T[][] = [];
  for (const event of events) {
    const run = runs.at(-1);
    const first = run?.[0];
    if (run && first !== undefined && at(first) === at(event) && joins(run, event)) run.push(event);
    else runs.push([event]);
  }
  return runs;
}
