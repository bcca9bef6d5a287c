/**
 * Exit codes of a service that could not start, one per thing to fix, so a supervisor or a person
 * knows where to look without reading a stack trace.
 */
export const START_EXIT = {
  /** An environment variable is wrong (ConfigError). */
  config: 2,
  /** Kafka did not answer (KAFKA_BROKERS, network, TLS/SASL). */
  kafka: 3,
  /**
   * Postgres did not answer or cannot be used (DATABASE_URL): unreachable, password refused, no such role,
   * TLS refused or untrusted, no such database, or not migrated to this build (`npm run migrate`).
   */
  postgres: 4,
  /** An HTTP port is taken by another process. */
  port: 5,
  /** A topic is missing and creating topics is switched off (KAFKA_TOPICS=validate). */
  topics: 6,
} as const;

export type StartExitCode = (typeof START_EXIT)[keyof typeof START_EXIT];

/** A start-up failure with one line saying what to fix, and the exit code that names it. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(
    readonly exitCode: StartExitCode,
    message: string,
  ) {
    super(message);
  }
}
