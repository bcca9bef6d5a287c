import type { z } from 'zod';
import { InvalidRequestError } from './api-errors.js';

/** Parses a query string with `schema` (strict: unknown parameters are refused); the first issue is a 400 naming it. */
export function validatedQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    throw new InvalidRequestError(
      'invalid_query',
      issue.keys.join(','),
      `unknown query parameter(s): ${issue.keys.join(', ')}`,
    );
  }
  const field = issue.path.join('.') || '(query)';
  throw new InvalidRequestError('invalid_query', field, `${field}: ${issue.message}`);
}
