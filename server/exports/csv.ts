/** RFC 4180 CSV, one record per line ending CRLF. Pure: the exports and their tests share it. */

/** A spreadsheet runs a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: null is empty; a would-be formula gets a leading `'`; quoted when it holds `"`, `,`, CR or LF. */
export function csvCell(value: string | null): string {
  if (value === null || value === '') return '';
  const inert = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

export const csvRecord = (values: readonly (string | null)[]) => `${values.map(csvCell).join(',')}\r\n`;

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Where records end in CSV bytes as they arrive: each LF outside quotes (an RFC 4180 field may hold
 * line breaks inside its quotes). `state.inQuotes` carries over between chunks; a doubled quote
 * closes and reopens, so it needs no case of its own.
 */
export function recordEnds(chunk: Uint8Array, state: { inQuotes: boolean }): number[] {
  const ends: number[] = [];
  let quote = chunk.indexOf(QUOTE);
  for (let at = 0; at < chunk.length; ) {
    if (state.inQuotes) {
      if (quote < 0) break;
      state.inQuotes = false;
      at = quote + 1;
      quote = chunk.indexOf(QUOTE, at);
      continue;
    }
    const lf = chunk.indexOf(LF, at);
    if (quote >= 0 && (lf < 0 || quote < lf)) {
      state.inQuotes = true;
      at = quote + 1;
      quote = chunk.indexOf(QUOTE, at);
      continue;
    }
    if (lf < 0) break;
    ends.push(lf);
    at = lf + 1;
  }
  return ends;
}
