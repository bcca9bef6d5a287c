import type { z } from 'zod';
import { InvalidRequestError } from './api-errors.js';

/** Parses a request body with `schema`; the first issue becomes a 400 naming its field. */
export function validated<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys.join(',');
    throw new InvalidRequestError('invalid_field', field, `unknown field(s): ${issue.keys.join(', ')}`);
  }
  const field = issue.path.join('.') || '(body)';
  throw new InvalidRequestError('invalid_field', field, `${field}: ${issue.message}`);
}
