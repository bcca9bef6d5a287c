import { z } from 'zod';

/** A configuration error that says which variable is wrong and how to fix it; apps exit on it at start. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses `env` with a zod object whose keys are variable names; every problem is reported at once. */
export function parseEnv<S extends z.ZodObject>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const variable = issue.path.join('.') || '(environment)';
      const given = env[String(issue.path[0])];
      return `${variable}: ${issue.message}${given === undefined ? ' (not set)' : ` (got "${given}")`}`;
    }),
  );
}

/**
 * Runs several loaders over one environment and reports every problem of all of them in one ConfigError,
 * so a process built from several modules' settings names all wrong variables at once.
 */
export function loadAll<T extends readonly unknown[]>(...loaders: { [K in keyof T]: () => T[K] }): T {
  const problems: string[] = [];
  const results = loaders.map((load) => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return results as unknown as T;
}

/** "a,b , c" → ["a","b","c"]; empty entries are an error, not silently dropped. */
export const commaList = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .refine((parts) => parts.every((part) => part.length > 0), {
    message: 'must be a comma-separated list without empty entries',
  });

export const port = z.coerce.number().int().min(0).max(65_535);

export const positiveInt = z.coerce.number().int().positive();

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), { message: 'must be a postgres:// or postgresql:// URL' });

/** The database every service uses when DATABASE_URL is not set: the local server's `tokencircuit`. */
export const databaseUrl = postgresUrl.default('postgres://postgres@127.0.0.1:5432/tokencircuit');

/** pino's levels, `info` unless LOG_LEVEL says otherwise. */
export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** TOKENCIRCUIT_POLICY_FILE: a JSON TokenCircuitConfig; unset means the RFC defaults. */
export const policyFile = z.string().min(1).optional();
