import type { z } from 'zod';

/** zod issues as "path: message" lines, the way every config error of the product reads. */
export function problemsOf(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

export const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';
