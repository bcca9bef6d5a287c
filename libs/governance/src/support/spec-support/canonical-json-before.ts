// The two canonical JSON writers as they were before they became one (commit 6dd2c45), kept verbatim as
// the oracle of canonical-json.equivalence.unit.spec.ts: stored hashes (audit chain, policy versions,
// argument fingerprints) were made with these bytes. Delete with that spec once no such hash is kept.

/** libs/governance/src/support/canonical-json.ts: the lenient writer. */
export function lenientBefore(value: unknown): string {
  // Scalars written directly: JSON.stringify's own result for each, without its call per value.
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      return JSON.stringify(value) ?? 'null';
  }
  // Built by concatenation: the map/join form allocated two arrays per level (fingerprints run
  // for every attempt on a validation or empty-result key).
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out += ',';
      // A hole stays empty, as map() + join() left it.
      if (i in value) out += value[i] === undefined ? 'null' : lenientBefore(value[i]);
    }
    return `${out}]`;
  }
  const names = Object.keys(value);
  if (names.length > 1) names.sort();
  let out = '{';
  for (const name of names) {
    const member = (value as Record<string, unknown>)[name];
    if (member === undefined || typeof member === 'function') continue;
    if (out.length > 1) out += ',';
    out += `${quoted(name)}:${lenientBefore(member)}`;
  }
  return `${out}}`;
}

// Characters JSON.stringify escapes (quote, backslash, controls) or may (surrogates, escaped when lone).
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const quoted = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

/** libs/storage/src/canonical-json.ts: the strict writer the audit hash chain used. */
export function strictBefore(value: unknown): string {
  return write(value, '$', new Set());
}

/** Thrown for values that have no single JSON form (undefined in arrays, NaN, Dates, cycles, …). */
export class CanonicalJsonErrorBefore extends TypeError {
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
      if (!Number.isFinite(value)) throw new CanonicalJsonErrorBefore(path, `is ${value}, which JSON cannot represent`);
      // ECMAScript Number::toString is the number format JCS prescribes; it also maps -0 to "0".
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      if (ancestors.has(value)) throw new CanonicalJsonErrorBefore(path, 'refers to itself (a cycle)');
      ancestors.add(value);
      try {
        return Array.isArray(value) ? writeArray(value, path, ancestors) : writeObject(value, path, ancestors);
      } finally {
        ancestors.delete(value);
      }
    default:
      throw new CanonicalJsonErrorBefore(path, `is ${typeof value}, which is not JSON data`);
  }
}

function writeString(value: string, path: string): string {
  // I-JSON (which JCS requires) forbids lone surrogates, and Postgres cannot store them either.
  if (LONE_SURROGATE.test(value)) throw new CanonicalJsonErrorBefore(path, 'contains a lone UTF-16 surrogate');
  return JSON.stringify(value);
}

function writeArray(items: readonly unknown[], path: string, ancestors: Set<object>): string {
  const parts: string[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item === undefined) throw new CanonicalJsonErrorBefore(`${path}[${index}]`, 'is undefined (or a hole)');
    parts.push(write(item, `${path}[${index}]`, ancestors));
  }
  return `[${parts.join(',')}]`;
}

function writeObject(value: object, path: string, ancestors: Set<object>): string {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) {
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'exotic object';
    throw new CanonicalJsonErrorBefore(path, `is a ${kind}, not plain JSON data (convert it first)`);
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
