import type { DeadLetter } from '@tokencircuit/projection';

/**
 * The dead-letter sink could not park these letters (the DLQ topic refused or is unreachable, or the sink
 * itself failed): names the partitions whose records wait on it, so only they count a failed parking attempt.
 */
export class DeadLetterPublishError extends Error {
  override readonly name = 'DeadLetterPublishError';
  readonly partitions: readonly number[];
  constructor(letters: readonly DeadLetter[], cause: unknown) {
    super(describe(cause), { cause });
    this.partitions = [...new Set(letters.map((letter) => letter.source.partition))];
  }
}

/** A partition that stopped retrying a record it could not park: paused until the projector restarts. */
export interface ParkingStuck {
  readonly partition: number;
  /** The last failure, fit for a health response and a log line. */
  readonly reason: string;
  readonly attempts: number;
  /** When it was marked stuck (ISO 8601). */
  readonly since: string;
}

/**
 * Whether `error` (as the pipeline throws it: DeadLetterSinkError around the sink's error) is a failure to
 * park, with the partitions to blame (null: every partition of the transaction) and the reason.
 */
export function parkingFailureOf(error: unknown): { partitions: readonly number[] | null; reason: string } | null {
  let parking = false;
  let partitions: readonly number[] | null = null;
  let innermost: unknown = error;
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth += 1) {
    if (at.name === 'DeadLetterSinkError') parking = true;
    if (at instanceof DeadLetterPublishError) partitions = at.partitions;
    innermost = at;
  }
  return parking ? { partitions, reason: `dead-letter sink failed: ${describe(innermost)}`.slice(0, 1024) } : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
