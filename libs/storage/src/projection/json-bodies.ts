/**
 * Large JSON bodies travel as one text parameter, joined by the ASCII record separator, and are split
 * in SQL: inside jsonb_to_recordset they would be parsed into a binary tree and printed back to text
 * before reaching their json column, and a text[] parameter costs an escaping pass on each side.
 * JSON.stringify never emits a raw U+001E (control characters are always escaped), so the split is exact.
 */
export function jsonBodies(values: readonly unknown[]): string {
  return joinBodies(values.map((value) => JSON.stringify(value)));
}

/** `jsonBodies` of texts already serialised by JSON.stringify. */
export function joinBodies(texts: readonly string[]): string {
  return texts.join(RECORD_SEPARATOR);
}

const RECORD_SEPARATOR = '\u001e';

/** The SQL that splits a `jsonBodies` parameter back into one text row per body, in order. */
export const splitBodies = (placeholder: string) => `string_to_table(${placeholder}, E'\\x1e')`;
