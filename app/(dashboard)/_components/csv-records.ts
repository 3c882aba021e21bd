const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Counts CSV records as the bytes arrive: a record ends at an LF outside quotes (an RFC 4180 field may
 * hold line breaks inside its quotes). `inQuotes` carries over between chunks; a doubled quote toggles twice.
 */
export function countRecords(chunk: Uint8Array, state: { inQuotes: boolean; records: number }): void {
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i];
    if (byte === QUOTE) state.inQuotes = !state.inQuotes;
    else if (byte === LF && !state.inQuotes) state.records++;
  }
}
