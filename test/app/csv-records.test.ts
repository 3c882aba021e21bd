import { describe, expect, it } from 'vitest';
import { countRecords } from '../../app/(dashboard)/_components/csv-records';
import { csvRecord } from '../../server/exports/csv';

const bytes = (text: string) => new TextEncoder().encode(text);

describe("the export's row counter", () => {
  it('counts records, not line breaks inside quoted fields, across chunk boundaries', () => {
    const csv = csvRecord(['id', 'wallet']) + csvRecord(['a', 'two\r\nlines, "quoted"']) + csvRecord(['b', '=1']);
    const state = { inQuotes: false, records: 0 };
    const whole = bytes(csv);
    for (let at = 0; at < whole.length; at += 3) countRecords(whole.subarray(at, at + 3), state);
    expect(state).toEqual({ inQuotes: false, records: 3 });
  });
});
