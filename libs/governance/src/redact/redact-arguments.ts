import { ContractError } from '@tokencircuit/contracts';
import { secretNameKind } from './families/secret-names.js';
import { redactSecrets } from './redact.js';
import { marker } from './secret-rule.js';

/**
 * Whether a value under this argument (or header) name is a credential whatever it looks like, and its
 * marker: the token families of families/secret-names.ts ("password", "DB_PASS", "apiKey", "X-Api-Key",
 * "client_secret", "signing_key", "Authorization", "session_cookie" yes; "max_tokens", "token_type",
 * "partition_key", "password_reset_required" no). "pwd" is left out on purpose: in tool arguments it is the
 * working directory far more often than a password.
 */
export const secretArgumentKind = (name: string): 'password' | 'secret' | null => secretNameKind(name);

/** Deeper than any honest tool call nests; the walk below recurses, so it has to stop somewhere. */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Tool arguments as the backend keeps them. A value under a secret-looking name (any type but null and
 * booleans, which carry no secret) becomes a marker; every other string, and every name, passes
 * redactSecrets(), which removes credentials wherever they sit (a URL with a password, a bearer token)
 * and keeps e-mail addresses, because arguments are fingerprinted to judge "structurally different"
 * retries and two recipients are two different calls. Returns the same object when nothing changes.
 */
export function redactArguments(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return redactObject(args, 1, redactSecrets);
}

/** redactArguments with another implementation of redactSecrets (redactEvent passes the memoised one). */
export function redactArgumentsWith(
  args: Readonly<Record<string, unknown>>,
  secrets: (text: string) => string,
): Record<string, unknown> {
  return redactObject(args, 1, secrets);
}

type Secrets = (text: string) => string;

function redactValue(value: unknown, depth: number, secrets: Secrets): unknown {
  if (typeof value === 'string') return secrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_ARGUMENT_DEPTH) {
    throw new ContractError(
      'invalid_field',
      'data.call.arguments',
      `data.call.arguments: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
    );
  }
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, i) => {
      const clean = redactValue(item, depth + 1, secrets);
      if (clean !== item) (out ??= [...value])[i] = clean;
    });
    return out ?? value;
  }
  return redactObject(value as Record<string, unknown>, depth + 1, secrets);
}

function redactObject(
  object: Readonly<Record<string, unknown>>,
  depth: number,
  secrets: Secrets,
): Record<string, unknown> {
  let changed = false;
  const entries: [string, unknown][] = [];
  for (const name of Object.keys(object)) {
    const value = object[name];
    const cleanName = secrets(name);
    const kind = value !== null && typeof value !== 'boolean' ? secretArgumentKind(name) : null;
    const cleanValue = kind !== null ? marker(kind) : redactValue(value, depth, secrets);
    if (cleanName !== name || cleanValue !== value) changed = true;
    entries.push([cleanName, cleanValue]);
  }
  if (!changed) return object as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a member named "__proto__" must stay a member, not become the prototype.
  for (const [name, value] of entries) {
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
