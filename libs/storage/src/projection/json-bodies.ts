/**
 * Large JSON bodies travel as one parameter, joined by the ASCII record separator, and are split in SQL:
 * inside the rows' JSON they would be lexed once more by json_to_recordset (and, as jsonb, parsed into a
 * binary tree and printed back to text) before reaching their json column, and a text[] parameter costs an
 * escaping pass on each side.
 * JSON.stringify never emits a raw U+001E (control characters are always escaped), so the split is exact.
 *
 * The parameter is the bodies' UTF-8 bytes (bytea, sent in binary), not a text: a chunk's bodies are
 * 0.5–1 MB, and joined into one string V8 places that string in fresh pages of its large-object space on
 * every chunk (the projector's most frequent page faults, ≈ 4 ns per byte on a virtual machine), and
 * node-postgres then encodes it to UTF-8 once more. Written straight into a Buffer, each body is encoded
 * once into memory the allocator reuses; Postgres checks the bytes are UTF-8 as it would a text.
 */
export function jsonBodies(values: readonly unknown[]): Buffer {
  return joinBodies(values.map((value) => JSON.stringify(value)));
}

/** `jsonBodies` of texts already serialised by JSON.stringify. */
export function joinBodies(texts: readonly string[]): Buffer {
  let size = Math.max(0, texts.length - 1);
  for (const text of texts) size += Buffer.byteLength(text, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  texts.forEach((text, i) => {
    if (i > 0) bytes[at++] = RECORD_SEPARATOR;
    at += bytes.write(text, at, 'utf8');
  });
  return bytes;
}

const RECORD_SEPARATOR = 0x1e;

/** The SQL that splits a `jsonBodies` parameter back into one text row per body, in order. */
export const splitBodies = (placeholder: string) =>
  `string_to_table(convert_from(${placeholder}::bytea, 'UTF8'), E'\\x1e')`;
