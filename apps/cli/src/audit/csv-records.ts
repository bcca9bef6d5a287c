/** Records in RFC 4180 text: CRLFs outside quoted fields (a quoted field may hold line breaks). */
export function csvRecords(text: string): number {
  let records = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\r' && text[i + 1] === '\n') records += 1;
  }
  return records;
}
