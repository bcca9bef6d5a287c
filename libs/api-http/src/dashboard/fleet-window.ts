import { z } from 'zod';
import { InvalidRequestError } from '../http/api-errors.js';

/** The chart's time windows and their bucket widths (about 60 points each). */
export const FLEET_WINDOWS = {
  '1h': { windowSeconds: 3_600, bucketSeconds: 60 },
  '6h': { windowSeconds: 6 * 3_600, bucketSeconds: 5 * 60 },
  '24h': { windowSeconds: 24 * 3_600, bucketSeconds: 30 * 60 },
  '7d': { windowSeconds: 7 * 24 * 3_600, bucketSeconds: 3 * 3_600 },
} as const;

export type FleetWindowName = keyof typeof FLEET_WINDOWS;

export const FleetQuerySchema = z
  .object({ window: z.enum(Object.keys(FLEET_WINDOWS) as [FleetWindowName, ...FleetWindowName[]]).default('1h') })
  .strict();

export interface FleetWindow {
  readonly name: FleetWindowName;
  /** First bucket's start: aligned to the bucket width, so buckets do not shift between refreshes. */
  readonly from: Date;
  readonly to: Date;
  readonly bucketSeconds: number;
}

/** Validates ?window= and places it on bucket boundaries ending after `now`. */
export function fleetWindowOf(query: unknown, now: Date): FleetWindow {
  const parsed = FleetQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(',') : issue.path.join('.') || '(query)';
    throw new InvalidRequestError('invalid_query', field, `${field}: ${issue.message}`);
  }
  const { windowSeconds, bucketSeconds } = FLEET_WINDOWS[parsed.data.window];
  const bucketMs = bucketSeconds * 1000;
  const end = Math.floor(now.getTime() / bucketMs) * bucketMs + bucketMs;
  return { name: parsed.data.window, from: new Date(end - windowSeconds * 1000), to: new Date(end), bucketSeconds };
}
