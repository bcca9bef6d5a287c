/** A CSV cell: text, a number, a boolean or null (empty). */
export type CsvValue = string | number | boolean | null;

// Spreadsheets run cells starting with these as formulas; audit data comes from agents, so never let it.
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled). Text that a
 * spreadsheet would evaluate as a formula gets a leading apostrophe (OWASP "CSV injection"), which
 * spreadsheets hide and which keeps the exported evidence inert.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as RFC 4180 CSV: a header row, CRLF line breaks, a CRLF after the last record. */
export function toCsv<Row>(
  columns: ReadonlyArray<readonly [header: string, cell: (row: Row) => CsvValue]>,
  rows: readonly Row[],
): string {
  const lines = [columns.map(([header]) => csvField(header)).join(',')];
  for (const row of rows) lines.push(columns.map(([, cell]) => csvField(cell(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
