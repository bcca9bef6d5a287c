/**
 * The one canonical JSON of the code base, in the style of RFC 8785 (JCS): object members sorted by
 * the UTF-16 code units of their names, no insignificant whitespace, strings and numbers written
 * exactly as ECMAScript's JSON.stringify writes them (which is what JCS specifies). Equal data gives
 * equal bytes whatever the key order it was built or stored with (jsonb reorders keys), so it can be
 * hashed: the audit hash chain, its anchors, the policy version and the argument fingerprints all
 * hash it. Its bytes for every value it accepts must never change, or stored hashes stop matching.
 *
 * Strict by default: a value with no single JSON form (NaN, undefined in an array, a Date, a bigint,
 * a function, a lone surrogate, a cycle) throws a CanonicalJsonError naming its path. Undefined
 * object members are dropped, as JSON and jsonb drop them.
 *
 * `{ lenient: true }` is for data nobody has made JSON yet and that must still be told apart without
 * throwing: tool arguments as an agent framework hands them to the SDK, and the core's fold, which
 * must be total. It writes what JSON.stringify writes once keys are sorted (non-finite numbers and
 * undefined or function array items as null, function members dropped, lone surrogates escaped),
 * except that any object is walked by its own enumerable keys (a Date is `{}`, no toJSON) and a hole
 * in an array stays empty. On JSON data both modes give the same bytes.
 */
export function canonicalJson(value: unknown, options?: CanonicalJsonOptions): string {
  const lenient = options?.lenient === true;
  try {
    return write(value, lenient, lenient ? null : new Set());
  } catch (error) {
    if (error instanceof Unrepresentable)
      throw new CanonicalJsonError(`$${error.path.reverse().join('')}`, error.problem);
    throw error;
  }
}

export interface CanonicalJsonOptions {
  /** Write what JSON.stringify would instead of refusing what JSON cannot hold (see canonicalJson). */
  readonly lenient?: boolean;
}

/** Thrown in strict mode for values that have no single JSON form (undefined in arrays, NaN, Dates, cycles, …). */
export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`canonicalJson: ${path} ${problem}`);
  }
}

/**
 * Raised deep in the walk; each level on the way out adds its segment. The path is built only when
 * something is refused, so the common case allocates no path strings.
 */
class Unrepresentable {
  readonly path: string[] = [];
  constructor(readonly problem: string) {}
}

const within = (error: unknown, segment: string): unknown => {
  if (error instanceof Unrepresentable) error.path.push(segment);
  return error;
};

/** `ancestors` is null in lenient mode (no cycle check: JSON.stringify's own overflow is the answer there). */
function write(value: unknown, lenient: boolean, ancestors: Set<object> | null): string {
  switch (typeof value) {
    case 'string':
      return quoted(value, lenient);
    case 'number':
      // ECMAScript Number::toString is the number format JCS prescribes; it also maps -0 to "0".
      if (Number.isFinite(value)) return String(value);
      if (lenient) return 'null';
      throw new Unrepresentable(`is ${value}, which JSON cannot represent`);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (ancestors === null)
        return Array.isArray(value) ? writeArray(value, true, null) : writeObject(value, true, null);
      if (ancestors.has(value)) throw new Unrepresentable('refers to itself (a cycle)');
      ancestors.add(value);
      try {
        if (Array.isArray(value)) return writeArray(value, false, ancestors);
        const prototype = Object.getPrototypeOf(value) as unknown;
        if (prototype !== Object.prototype && prototype !== null) {
          const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'exotic object';
          throw new Unrepresentable(`is a ${kind}, not plain JSON data (convert it first)`);
        }
        return writeObject(value, false, ancestors);
      } finally {
        ancestors.delete(value);
      }
    default:
      // JSON.stringify's answer (a bigint throws its own TypeError there, as it always did).
      if (lenient) return JSON.stringify(value) ?? 'null';
      throw new Unrepresentable(`is ${typeof value}, which is not JSON data`);
  }
}

// Built by concatenation: a map/join form allocates two arrays per level, and argument fingerprints
// run for every attempt on a validation or empty-result key.
function writeArray(items: readonly unknown[], lenient: boolean, ancestors: Set<object> | null): string {
  let out = '[';
  let index = 0;
  try {
    for (; index < items.length; index += 1) {
      if (index > 0) out += ',';
      if (lenient) {
        // A hole stays empty, as map() + join() once left it; undefined becomes null, as JSON.stringify writes it.
        if (index in items) out += items[index] === undefined ? 'null' : write(items[index], true, null);
      } else {
        if (items[index] === undefined) throw new Unrepresentable('is undefined (or a hole)');
        out += write(items[index], false, ancestors);
      }
    }
  } catch (error) {
    throw within(error, `[${index}]`);
  }
  return `${out}]`;
}

function writeObject(value: object, lenient: boolean, ancestors: Set<object> | null): string {
  const record = value as Record<string, unknown>;
  const names = Object.keys(record);
  // Array.prototype.sort compares UTF-16 code units, exactly JCS's member order.
  if (names.length > 1) names.sort();
  let out = '{';
  let name = '';
  try {
    for (name of names) {
      const member = record[name];
      if (member === undefined || (lenient && typeof member === 'function')) continue;
      if (out.length > 1) out += ',';
      out += `${quoted(name, lenient)}:${write(member, lenient, ancestors)}`;
    }
  } catch (error) {
    throw within(error, `.${name}`);
  }
  return `${out}}`;
}

// Characters JSON.stringify escapes (quote, backslash, controls) or may (surrogates, escaped when lone).
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function quoted(text: string, lenient: boolean): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  // I-JSON (which JCS requires) forbids lone surrogates, and Postgres cannot store them either.
  if (!lenient && LONE_SURROGATE.test(text)) throw new Unrepresentable('contains a lone UTF-16 surrogate');
  return JSON.stringify(text);
}
