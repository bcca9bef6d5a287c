import type { AgentEvent } from '@tokencircuit/contracts';

/** createGovernor or wrapTool was given options that cannot work; the message lists every problem. */
export class GovernorConfigError extends Error {
  override readonly name = 'GovernorConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`invalid TokenCircuit options:\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * An event could not be handed to the backend (broker or ingest did not acknowledge it). Never
 * swallowed: it is thrown, or given to `onPublishError` when one is configured. When the tool already
 * ran, `toolResult`/`toolError` carry what it produced so the caller loses nothing either.
 */
export class PublishError extends Error {
  override readonly name = 'PublishError';
  constructor(
    message: string,
    readonly event: AgentEvent,
    options: { cause?: unknown; toolRan?: boolean; toolResult?: unknown; toolError?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.toolRan = options.toolRan ?? false;
    this.toolResult = options.toolResult;
    this.toolError = options.toolError;
  }
  readonly toolRan: boolean;
  readonly toolResult: unknown;
  readonly toolError: unknown;
}

/** The TokenCircuit HTTP API answered with an error (bad key, bad request) or not at all. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    message: string,
    /** HTTP status, or null when no response came back. */
    readonly status: number | null,
    /** The API's stable error code (e.g. invalid_field, unauthorized), when it sent one. */
    readonly code: string | null,
    options: { cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }

  /** Worth another try: no response, or a 5xx / 429. A 4xx means the request itself is wrong. */
  get retriable(): boolean {
    return this.status === null || this.status >= 500 || this.status === 429;
  }
}
