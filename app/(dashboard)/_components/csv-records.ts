import { recordEnds } from '../../../server/exports/csv';

/** Counts CSV records as the bytes arrive (`recordEnds`); the state carries over between chunks. */
export function countRecords(chunk: Uint8Array, state: { inQuotes: boolean; records: number }): void {
  state.records += recordEnds(chunk, state).length;
}
