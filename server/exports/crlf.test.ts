import { describe, expect, it } from 'vitest';
import { csvRecord } from './csv';
import { crlfRecords } from './stream';

/** What COPY … CSV writes: the same quoting, records ending LF. */
const copyRecord = (values: string[]) => `${csvRecord(values).slice(0, -2)}\n`;

describe('records copied out by Postgres, as RFC 4180 writes them', () => {
  const records = [
    ['id', 'note'],
    ['1', 'plain'],
    ['2', 'two\nlines'],
    ['3', 'crlf\r\ninside'],
    ['4', 'say "hi", then\nleave'],
    ['5', '"\n"'],
    ['6', ''],
  ];
  const copied = Buffer.from(records.map(copyRecord).join(''));
  const expected = records.map((r) => csvRecord(r)).join('');

  it('end each record with CRLF and keep line breaks inside quotes, however the bytes are cut', () => {
    for (let size = 1; size <= copied.length; size++) {
      const crlf = crlfRecords();
      const out: Buffer[] = [];
      for (let at = 0; at < copied.length; at += size) out.push(crlf(copied.subarray(at, at + size)));
      expect(Buffer.concat(out).toString(), `chunks of ${size}`).toBe(expected);
    }
  });
});
