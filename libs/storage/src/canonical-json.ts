/**
 * Canonical JSON in the style of RFC 8785 (JCS): object members sorted by the UTF-16 code units of
 * their names, no insignificant whitespace, strings and numbers serialised exactly as ECMAScript's
 * JSON.stringify does (which is what JCS specifies). Equal data gives equal bytes, whatever the key
 * order it was built or stored with (jsonb reorders keys), so it can be hashed.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$', new Set());
}

/** Thrown for values that have no single JSON form (undefined in arrays, NaN, Dates, cycles, …). */
export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`canonicalJson: ${path} ${problem}`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function write(value: unknown, path: string, ancestors: Set<object>): string {
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return writeString(value, path);
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError(path, `is ${value}, which JSON cannot represent`);
      // ECMAScript Number::toString is the number format JCS prescribes; it also maps -0 to "0".
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      if (ancestors.has(value)) throw new CanonicalJsonError(path, 'refers to itself (a cycle)');
      ancestors.add(value);
      try {
        return Array.isArray(value) ? writeArray(value, path, ancestors) : writeObject(value, path, ancestors);
      } finally {
        ancestors.delete(value);
      }
    default:
      throw new CanonicalJsonError(path, `is ${typeof value}, which is not JSON data`);
  }
}

function writeString(value: string, path: string): string {
  // I-JSON (which JCS requires) forbids lone surrogates, and Postgres cannot store them either.
  if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError(path, 'contains a lone UTF-16 surrogate');
  return JSON.stringify(value);
}

function writeArray(items: readonly unknown[], path: string, ancestors: Set<object>): string {
  const parts: string[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item === undefined) throw new CanonicalJsonError(`${path}[${index}]`, 'is undefined (or a hole)');
    parts.push(write(item, `${path}[${index}]`, ancestors));
  }
  return `[${parts.join(',')}]`;
}

function writeObject(value: object, path: string, ancestors: Set<object>): string {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'exotic object';
    throw new CanonicalJsonError(path, `is a ${kind}, not plain JSON data (convert it first)`);
  }
  const record = value as Record<string, unknown>;
  // Array.prototype.sort compares UTF-16 code units, exactly JCS's member order.
  const names = Object.keys(record)
    .filter((name) => record[name] !== undefined)
    .sort();
  const members = names.map((name) => {
    const memberPath = `${path}.${name}`;
    return `${writeString(name, memberPath)}:${write(record[name], memberPath, ancestors)}`;
  });
  return `{${members.join(',')}}`;
}
