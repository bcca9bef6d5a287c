import { START_EXIT, StartupError } from '@tokencircuit/config';

/**
 * Kafka protocol errors the protocol marks retriable that a brand-new or just-changed cluster answers for a
 * few seconds (https://kafka.apache.org/protocol#protocol_error_codes, "Retriable: True"), by kafkajs' names:
 * a new group's coordinator not elected or still loading its offsets partition, a new topic's leader not
 * known everywhere yet, a request that timed out on a broker busy starting.
 */
const RETRIABLE_AT_START = new Set([
  'NOT_COORDINATOR_FOR_GROUP', // NOT_COORDINATOR (16)
  'GROUP_COORDINATOR_NOT_AVAILABLE', // COORDINATOR_NOT_AVAILABLE (15)
  'GROUP_LOAD_IN_PROGRESS', // COORDINATOR_LOAD_IN_PROGRESS (14)
  'LEADER_NOT_AVAILABLE', // 5
  'NOT_LEADER_FOR_PARTITION', // NOT_LEADER_OR_FOLLOWER (6)
  'UNKNOWN_TOPIC_OR_PARTITION', // 3: a topic created a moment ago, not yet on every broker
  'REQUEST_TIMED_OUT', // 7
  'REPLICA_NOT_AVAILABLE', // 9
  'NETWORK_EXCEPTION', // 13
  'NOT_ENOUGH_REPLICAS', // 19
  'NOT_CONTROLLER', // 41
  'KAFKA_STORAGE_ERROR', // 56
  'FENCED_LEADER_EPOCH', // 74
  'UNKNOWN_LEADER_EPOCH', // 75
  'OFFSET_NOT_AVAILABLE', // 78
  'PREFERRED_LEADER_NOT_AVAILABLE', // 80
  'ELIGIBLE_LEADERS_NOT_AVAILABLE', // 83
  'REBALANCE_IN_PROGRESS', // 27: the group is settling its first members
]);

/**
 * kafkajs' own errors for the same conditions, raised before or instead of a protocol answer: no
 * coordinator found within its retries, metadata not loaded yet, a broker of the metadata not connected
 * yet, a request or connection that timed out or dropped while the broker was starting.
 */
const RETRIABLE_CLIENT_ERRORS = new Set([
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
]);

interface ErrorLike {
  readonly name?: unknown;
  readonly type?: unknown;
  readonly message?: unknown;
  readonly originalError?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/** The errors inside `error` (kafkajs wraps in originalError, aggregates in errors, Node in cause), outermost first. */
function chainOf(error: unknown): ErrorLike[] {
  const found: ErrorLike[] = [];
  const pending: unknown[] = [error];
  while (pending.length > 0 && found.length < 32) {
    const next = pending.shift();
    if (next === null || typeof next !== 'object' || found.includes(next as ErrorLike)) continue;
    const e = next as ErrorLike;
    found.push(e);
    pending.push(e.originalError, e.cause, ...(Array.isArray(e.errors) ? e.errors : []));
  }
  return found;
}

/**
 * Whether a start-up call that failed with `error` is worth trying again: some error inside it is one a
 * cluster that is starting (or electing) answers for a moment. Anything else (authorization, a wrong
 * configuration, a bug) fails at once, unchanged.
 */
export function retriableAtStart(error: unknown): boolean {
  return chainOf(error).some(
    (e) =>
      (typeof e.type === 'string' && RETRIABLE_AT_START.has(e.type)) ||
      (typeof e.name === 'string' && RETRIABLE_CLIENT_ERRORS.has(e.name)),
  );
}

/** The innermost message of `error`: kafkajs wraps the broker's answer in retry errors. */
export function innermostReason(error: unknown): string {
  const chain = chainOf(error);
  const inner = [...chain].reverse().find((e) => typeof e.message === 'string' && e.message !== '');
  return (inner?.message as string | undefined) ?? String(error);
}

export interface StartUpRetryPolicy {
  /** How long a start-up call may keep failing retriably before the start fails. */
  readonly boundMs: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * A minute: a new single-broker cluster elects coordinators and leaders within seconds, a multi-broker one
 * after a controller change within tens of seconds; longer means it is not coming.
 */
export const START_UP_RETRY: StartUpRetryPolicy = { boundMs: 60_000, initialDelayMs: 100, maxDelayMs: 2_000 };

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1) after `elapsedMs` of failing, or null when
 * the bound is reached: doubling from initialDelayMs up to maxDelayMs, the last wait cut to end at the bound.
 */
export function startUpRetryDelay(attempt: number, elapsedMs: number, policy: StartUpRetryPolicy): number | null {
  const left = policy.boundMs - elapsedMs;
  if (left <= 0) return null;
  const delay = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt - 1, 30));
  return Math.min(delay, left);
}

export interface StartUpRetryOptions {
  readonly policy?: StartUpRetryPolicy;
  /** Told each retriable failure before the wait (a warn log line). */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/**
 * Runs one start-up call against Kafka (`what` names it for the person), again after each retriable
 * failure (retriableAtStart) until the bound; then a StartupError with one line and the Kafka exit code. A
 * non-retriable failure is thrown at once, unchanged. The call must be safe to repeat (reads, setOffsets
 * of a group with no member, createTopics that finds a topic existing, connect).
 */
export async function retryAtStart<T>(
  what: string,
  call: () => Promise<T>,
  options: StartUpRetryOptions = {},
): Promise<T> {
  const policy = options.policy ?? START_UP_RETRY;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!retriableAtStart(error)) throw error;
      const delay = startUpRetryDelay(attempt, Date.now() - started, policy);
      if (delay === null) {
        throw new StartupError(
          START_EXIT.kafka,
          `Kafka did not get ready for ${what} within ${policy.boundMs / 1000} s (${attempt} attempts): ${innermostReason(error)}; check the brokers' logs (a coordinator or partition leader that is never elected)`,
        );
      }
      options.onRetry?.(error, attempt, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
