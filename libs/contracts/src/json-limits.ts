import { LIMITS } from './limits.js';

/** JSON a reader must refuse before (or right after) parsing it; `reason` names what is wrong. */
export class JsonLimitError extends Error {
  override readonly name = 'JsonLimitError';
  constructor(
    readonly code: 'too_deep' | 'invalid_json' | 'reserved_member' | 'not_finite',
    /** Dotted path of the offending member, '' for the document itself. */
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, found by one pass over the characters
 * (strings skipped, escapes honoured): no recursion, so a document 10,000 levels deep costs a loop,
 * not a stack. Malformed text is not judged here; JSON.parse does that afterwards.
 */
export function jsonTextTooDeep(text: string, limit: number = LIMITS.jsonDepth): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump from quote to quote (most of an event's text is strings); a quote ends it unless an odd
      // run of backslashes escapes it. Unterminated, nothing after it can nest.
      let end = i;
      do {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
      } while (escaped(text, end));
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes right before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The first problem of an already-parsed JSON value, found without recursion: nesting deeper than `limit`,
 * a number JSON cannot carry (Infinity from "1e400", NaN), or a member named "__proto__". JSON.parse keeps
 * that name as an own property, but every reader that copies objects by assignment (zod records among
 * them) turns it into the copy's prototype and drops it: the same bytes would mean different arguments to
 * different readers, so it is refused rather than silently lost.
 */
export function jsonValueProblem(value: unknown, limit: number = LIMITS.jsonDepth): JsonLimitError | null {
  // Paths are built only for the member at fault: each entry points at its parent.
  const stack: Frame[] = [{ value, depth: 0, parent: null, name: '' }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const v = at.value;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) continue;
      const path = pathOf(at);
      return new JsonLimitError('not_finite', path, `${label(path)}: ${v} is not a JSON number`);
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = at.depth + 1;
    if (depth > limit) {
      const path = pathOf(at);
      return new JsonLimitError('too_deep', path, `${label(path)}: JSON nested deeper than ${limit} levels`);
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, parent: at, name: String(i) });
      continue;
    }
    for (const name of Object.keys(v)) {
      if (name === '__proto__') {
        const path = pathOf({ value: null, depth, parent: at, name });
        return new JsonLimitError(
          'reserved_member',
          path,
          `${path}: a member named "__proto__" is not accepted (JavaScript readers would take it for the object's prototype)`,
        );
      }
      stack.push({ value: (v as Record<string, unknown>)[name], depth, parent: at, name });
    }
  }
  return null;
}

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Frame | null;
  readonly name: string;
}

function pathOf(frame: Frame): string {
  const names: string[] = [];
  for (let f: Frame | null = frame; f !== null && f.parent !== null; f = f.parent) names.push(f.name);
  return names.reverse().join('.');
}

/**
 * JSON.parse for text from outside: nesting checked on the text first (so the parse and every later walk
 * stay shallow), then the value's numbers and member names. Throws JsonLimitError.
 */
export function parseBoundedJson(text: string, limit: number = LIMITS.jsonDepth): unknown {
  if (jsonTextTooDeep(text, limit)) {
    throw new JsonLimitError('too_deep', '', `JSON nested deeper than ${limit} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonLimitError('invalid_json', '', (error as Error).message);
  }
  const problem = jsonValueProblem(value, limit);
  if (problem) throw problem;
  return value;
}

const label = (path: string): string => (path === '' ? '(value)' : path);
