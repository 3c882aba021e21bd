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
