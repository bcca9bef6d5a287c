import { secretNameKind } from './families/secret-names.js';
import { marker } from './secret-rule.js';

const isMarker = (value: string): boolean => /^\[REDACTED:[a-z0-9_]+\]$/.test(value);

/**
 * One header's value as the backend keeps it. Under a credential name (Authorization, Cookie, X-Api-Key,
 * x-goog-api-key, Ocp-Apim-Subscription-Key, X-Amz-Security-Token, PRIVATE-TOKEN, X-Vault-Token, …: the
 * token families of families/secret-names.ts, after trimming the stray whitespace a hand-built header
 * name may carry) the value is a credential whatever it looks like and becomes a marker, unless it already
 * is exactly one (a value that only starts with a marker is not done). Every other value passes `free`.
 */
export function redactHeaderValue(name: string, value: unknown, free: (text: string) => string): string {
  if (typeof value !== 'string') return value as string;
  if (secretNameKind(name.trim()) !== null) return isMarker(value) ? value : marker('credentials');
  return free(value);
}
