import { createRequire } from 'node:module';
import fc from 'fast-check';
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { StartupError } from '@tokencircuit/config';
import { retriableAtStart, retryAtStart, startUpRetryDelay, type StartUpRetryPolicy } from './start-up-retry.js';

// kafkajs' own error classes and its protocol decoder, so the shapes are the ones a broker's answer becomes.
const { KafkaJSNumberOfRetriesExceeded, KafkaJSGroupCoordinatorNotFound, KafkaJSSASLAuthenticationError } = kafkajs;
const { createErrorFromCode } = createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as {
  createErrorFromCode(code: number): Error;
};
/** kafkajs' typings declare these constructors without the message its classes take. */
const raise = (Class: unknown, message: string): Error => new (Class as new (message: string) => Error)(message);

describe('retriableAtStart: what a cluster that is starting or electing answers for a moment', () => {
  it.each([
    [16, 'NOT_COORDINATOR'],
    [15, 'COORDINATOR_NOT_AVAILABLE'],
    [14, 'COORDINATOR_LOAD_IN_PROGRESS'],
    [5, 'LEADER_NOT_AVAILABLE'],
    [6, 'NOT_LEADER_OR_FOLLOWER'],
    [3, 'UNKNOWN_TOPIC_OR_PARTITION'],
    [7, 'REQUEST_TIMED_OUT'],
    [41, 'NOT_CONTROLLER'],
  ])('error code %i (%s) is retried, bare or wrapped by kafkajs retries', (code) => {
    const answer = createErrorFromCode(code);
    expect(retriableAtStart(answer)).toBe(true);
    expect(retriableAtStart(new KafkaJSNumberOfRetriesExceeded(answer, { retryCount: 5, retryTime: 1000 }))).toBe(true);
    expect(retriableAtStart(new Error('while fixing offsets', { cause: answer }))).toBe(true);
  });

  it('no coordinator found within kafkajs retries is retried', () => {
    expect(retriableAtStart(raise(KafkaJSGroupCoordinatorNotFound, 'Failed to find group coordinator'))).toBe(true);
  });

  it.each([
    [29, 'TOPIC_AUTHORIZATION_FAILED'],
    [30, 'GROUP_AUTHORIZATION_FAILED'],
    [25, 'UNKNOWN_MEMBER_ID'],
    [42, 'INVALID_REQUEST'],
  ])('error code %i (%s) fails at once: waiting cannot fix it', (code) => {
    expect(retriableAtStart(createErrorFromCode(code))).toBe(false);
  });

  it('authentication, a bug, and things that are not errors fail at once', () => {
    expect(retriableAtStart(raise(KafkaJSSASLAuthenticationError, 'SASL PLAIN authentication failed'))).toBe(false);
    expect(retriableAtStart(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(retriableAtStart(null)).toBe(false);
    expect(retriableAtStart('NOT_COORDINATOR_FOR_GROUP')).toBe(false);
  });

  it('a cycle of causes ends the search', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(retriableAtStart(a)).toBe(false);
  });
});

describe('startUpRetryDelay: bounded, growing waits', () => {
  const policy: StartUpRetryPolicy = { boundMs: 10_000, initialDelayMs: 100, maxDelayMs: 2_000 };

  it('doubles from the first wait up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => startUpRetryDelay(n, 0, policy))).toEqual([
      100, 200, 400, 800, 1_600, 2_000, 2_000,
    ]);
  });

  it('gives up at the bound, and never waits past it (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 20_000 }), (attempt, elapsed) => {
        const delay = startUpRetryDelay(attempt, elapsed, policy);
        if (elapsed >= policy.boundMs) expect(delay).toBeNull();
        else {
          expect(delay).not.toBeNull();
          expect(delay!).toBeGreaterThan(0);
          expect(elapsed + delay!).toBeLessThanOrEqual(policy.boundMs);
          expect(delay!).toBeLessThanOrEqual(policy.maxDelayMs);
        }
      }),
    );
  });
});

describe('retryAtStart', () => {
  const quick: StartUpRetryPolicy = { boundMs: 300, initialDelayMs: 10, maxDelayMs: 50 };

  it('returns what the call returns once the cluster is ready, telling each retry', async () => {
    let calls = 0;
    const retries: number[] = [];
    const result = await retryAtStart(
      'the notifier group',
      async () => {
        calls++;
        if (calls < 3) throw createErrorFromCode(16);
        return 'offsets';
      },
      { policy: quick, onRetry: (_, attempt) => retries.push(attempt) },
    );
    expect(result).toBe('offsets');
    expect(calls).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it('throws a non-retriable error at once, unchanged', async () => {
    const refused = createErrorFromCode(30);
    let calls = 0;
    await expect(
      retryAtStart(
        'x',
        async () => {
          calls++;
          throw refused;
        },
        { policy: quick },
      ),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it('past the bound: one line with the Kafka exit code, naming the call and the broker answer', async () => {
    const error = await retryAtStart(
      "the notifier group's starting offsets",
      () => Promise.reject(createErrorFromCode(16)),
      { policy: quick },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).exitCode).toBe(3);
    expect((error as Error).message).toMatch(
      /^Kafka did not get ready for the notifier group's starting offsets within 0.3 s \(\d+ attempts\): This is not the correct coordinator for this group; /,
    );
    expect((error as Error).message).not.toContain('\n');
  });
});
