/** Response headers as a record of name → value. */
export type HeaderRecord = Readonly<Record<string, string>>;

const UPPER = /[A-Z]/;

/**
 * The same headers with lower-case names. HTTP field names are case-insensitive (RFC 9110 §5.1), so
 * `Retry-After` and `retry-after` are one field; when both are present their values are combined in
 * order with ", " as RFC 9110 §5.3 combines repeated field lines, as long as the result stays within
 * `maxValueChars` (past it the later value is dropped rather than cut, which could split a character).
 * Returns `headers` itself when every name is already lower-case (the usual case): nothing allocated.
 */
export function lowerCaseHeaders(headers: HeaderRecord, maxValueChars = Infinity): HeaderRecord {
  let mixed = false;
  for (const name in headers) {
    if (UPPER.test(name)) {
      mixed = true;
      break;
    }
  }
  if (!mixed) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!Object.hasOwn(out, lower)) out[lower] = value;
    else if (out[lower]!.length + 2 + value.length <= maxValueChars) out[lower] = `${out[lower]}, ${value}`;
  }
  return out;
}

/** The value of header `name` whatever the case of its name in `headers` (repeated fields combined), or null. */
export function headerValue(headers: HeaderRecord, name: string): string | null {
  const lower = name.toLowerCase();
  let found: string | null = null;
  for (const key in headers) {
    if (!Object.hasOwn(headers, key) || key.toLowerCase() !== lower) continue;
    found = found === null ? headers[key]! : `${found}, ${headers[key]!}`;
  }
  return found;
}
