import { ContractError } from '@tokencircuit/contracts';
import { redactSecrets } from './redact.js';
import { marker } from './secret-rule.js';

/**
 * Argument names whose value is a credential whatever it looks like. Matched at the end of the name,
 * case-insensitively: "password", "db_password", "apiKey", "X-Api-Key", "client_secret",
 * "Authorization" and "session_cookie" match; "max_tokens", "token_type" and "keyword" do not. "pwd" is
 * left out on purpose: in tool arguments it is the working directory far more often than a password.
 */
export const SECRET_ARGUMENT_NAME =
  /(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|accountkey|private[_-]?key|credentials?|signature|authorization|cookie)$/i;
const PASSWORD_NAME = /(?:password|passwd|passphrase)$/i;

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
    const cleanValue =
      SECRET_ARGUMENT_NAME.test(name) && value !== null && typeof value !== 'boolean'
        ? marker(PASSWORD_NAME.test(name) ? 'password' : 'secret')
        : redactValue(value, depth, secrets);
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
