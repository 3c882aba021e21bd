/**
 * Open status streams of this process, kept on `globalThis`: Next's route bundles and the process's own
 * code (its stop, its metrics) do not share module instances, so a module-level set would be one per bundle.
 */
const OPEN_STREAMS = Symbol.for('switchyard.transaction-streams');
type Registry = Set<() => void>;

export const openStreams = (): Registry => {
  const holder = globalThis as { [OPEN_STREAMS]?: Registry };
  holder[OPEN_STREAMS] ??= new Set();
  return holder[OPEN_STREAMS];
};

/** Status streams open in this process; each holds one of its client's stream slots. */
export const openTransactionStreamCount = (): number => openStreams().size;

/** Ends every open status stream of this process at once: a stop does not wait for clients to leave. */
export function endTransactionStreams(): void {
  for (const end of [...openStreams()]) end();
}
