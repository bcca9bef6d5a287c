import { describe, expect, it } from 'vitest';
import { csvRecords } from './csv-records.js';

describe('csvRecords: records of the CSV the audit API exports (RFC 4180, CRLF)', () => {
  it('counts the header and every row', () => {
    expect(csvRecords('seq,id\r\n1,a\r\n2,b\r\n')).toBe(3);
  });

  it('a line break inside a quoted field is not a new record, nor is a doubled quote the end of the field', () => {
    expect(csvRecords('seq,why\r\n1,"first line\r\nsecond ""quoted"" line"\r\n2,plain\r\n')).toBe(3);
  });
});
