import { InvalidRequestError } from './api-errors.js';

/**
 * SQLSTATE classes a read can only raise because of the values it was given: 22 data exception (U+0000 in
 * text, an out-of-range timestamp or number, an invalid escape) and 54 program limit exceeded (a value too
 * large to index or compare). Every value an API read binds comes from the request (the tenant from its
 * key), so these are the client's 4xx, never a 500; every other error is left as it is.
 */
const CLIENT_VALUE_CLASSES = new Set(['22', '54']);

export function isClientValueError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && CLIENT_VALUE_CLASSES.has(code.slice(0, 2));
}

/** Runs a database read and turns a refusal of its values into a 400 naming the database's reason. */
export async function clientValueErrorsAs400<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isClientValueError(error)) throw error;
    throw new InvalidRequestError(
      'invalid_value',
      '(request)',
      `a value of the request cannot be used: ${(error as Error).message}`,
    );
  }
}
