/**
 * A string as an SQL literal, the same characters node-postgres' `escapeLiteral` writes: quotes doubled, and when the
 * text has a backslash, backslashes doubled and the literal written ` E'…'`. pg builds its answer one character at a
 * time (`escaped += c`), a rope node per character: for the kilobytes of JSON a spend flush inlines 40 times a second,
 * that was a third of everything the API allocated under load (docs/benchmarks.md, "Preflight with spend budgets",
 * eighth pass), and the young-generation pauses it caused were the budget path's p99. Two native replaces instead.
 */
export function sqlLiteral(value: string): string {
  const quoted = value.includes("'") ? value.replaceAll("'", "''") : value;
  return value.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/**
 * A text[] as an SQL literal (`'{"a","b"}'::text[]`): each element double-quoted with its backslashes and quotes
 * escaped, the whole through sqlLiteral. For statements written without parameters (an OpeningStatement).
 */
export function sqlTextArray(values: readonly string[]): string {
  // A NUL would end the statement's text inside the message (the server refuses it as a protocol violation,
  // which reads as a connection fault and is retried for good); no Postgres text can hold one anyway.
  for (const v of values)
    if (v.includes('\u0000'))
      throw new TypeError('sqlTextArray: a value holds U+0000, which no Postgres text can hold');
  const elements = values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`);
  return `${sqlLiteral(`{${elements.join(',')}}`)}::text[]`;
}

/** An int[] as an SQL literal; refuses anything but a safe integer (it is written into the statement). */
export function sqlIntArray(values: readonly number[]): string {
  for (const v of values)
    if (!Number.isSafeInteger(v)) throw new TypeError(`sqlIntArray: ${String(v)} is not an integer`);
  return `'{${values.join(',')}}'::int[]`;
}
