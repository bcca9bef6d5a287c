import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.js';

describe('CSV (RFC 4180)', () => {
  it('leaves plain fields alone and writes null as an empty field', () => {
    expect(csvField('permission')).toBe('permission');
    expect(csvField(42)).toBe('42');
    expect(csvField(false)).toBe('false');
    expect(csvField(null)).toBe('');
  });

  it('quotes fields holding a comma, a quote, CR or LF, and doubles the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "no"')).toBe('"say ""no"""');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('keeps agent-supplied text inert in spreadsheets (formula prefixes get an apostrophe)', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-rm')).toBe("'-rm");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(-1)).toBe('-1');
  });

  it('writes a header row and CRLF-terminated records', () => {
    const rows = [
      { id: 'i-1', why: 'budget 0, "permission"' },
      { id: 'i-2', why: null },
    ];
    const csv = toCsv<(typeof rows)[number]>(
      [
        ['id', (r) => r.id],
        ['why', (r) => r.why],
      ],
      rows,
    );
    expect(csv).toBe('id,why\r\ni-1,"budget 0, ""permission"""\r\ni-2,\r\n');
  });
});
