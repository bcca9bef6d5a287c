import { ConfigError, START_EXIT, StartupError } from '@tokencircuit/config';

/** How a failed start is told: one line for the person, and the exit code naming what to fix. */
export interface StartFailure {
  readonly line: string;
  readonly exitCode: number;
}

/**
 * Maps what can stop a start to one line and an exit code: bad config (2), Kafka (3), Postgres (4: unreachable,
 * password, role, TLS, missing or unmigrated database),
 * port in use (5), missing topics (6). Anything else is a bug or an unforeseen failure: exit 1, with
 * the stack, because no single line would say what to fix.
 */
export function startFailureOf(name: string, error: unknown): StartFailure {
  if (error instanceof ConfigError) return { line: `${name}: ${error.message}`, exitCode: START_EXIT.config };
  if (error instanceof StartupError)
    return { line: `${name} cannot start: ${error.message}`, exitCode: error.exitCode };
  // By name: config must not depend on storage, and these come from it (DATABASE_URL unreachable, or the
  // database refused: login, TLS, missing database or role, not migrated).
  const errorName = (error as { name?: string } | null)?.name;
  if (errorName === 'DatabaseUnreachableError' || errorName === 'DatabaseStartError') {
    return { line: `${name} cannot start: ${(error as Error).message}`, exitCode: START_EXIT.postgres };
  }
  return { line: `${name} failed to start: ${(error as Error)?.stack ?? String(error)}`, exitCode: 1 };
}

/** A listen() that fails on a taken port with a StartupError naming the variable that moves it. */
export async function listenOrExplain(
  listen: () => Promise<unknown>,
  where: { port: number; host: string; variable: string },
): Promise<void> {
  try {
    await listen();
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new StartupError(
        START_EXIT.port,
        `port ${where.port} on ${where.host} is in use by another process: stop it, or set ${where.variable} to a free port`,
      );
    }
    throw error;
  }
}
