import { describe, expect, it } from 'vitest';
import { captureFailure, failureStatus } from './failure.js';
import { StatedToolFailure } from './stated-failure.js';

describe('StatedToolFailure: the caller states the dispatch facts, the SDK takes its word', () => {
  it('an answered error result is sent+received and failed, even when its text says it timed out', () => {
    const failure = captureFailure(
      new StatedToolFailure('upstream said: ETIMEDOUT while saving', { answered: true, result: { isError: true } }),
    );
    expect(failure.dispatch).toEqual({ requestSent: true, responseReceived: true });
    expect(failure).toMatchObject({ answered: true, timedOut: false, lostReply: false });
    expect(failure.error.message).toContain('upstream said: ETIMEDOUT while saving');
    // The wrapper's own name says nothing about the failure: the error is named by what it carries, if anything.
    expect(failure.error.name).toBeNull();
    expect(failureStatus(failure, false)).toBe('failed');
  });

  it('a request that never left is requestSent:false and failed for a write (nothing can have happened)', () => {
    const failure = captureFailure(
      new StatedToolFailure('upstream tickets is not running', { answered: false }, { cause: new Error('ECONNRESET') }),
    );
    expect(failure.dispatch).toEqual({ requestSent: false, responseReceived: false });
    expect(failureStatus(failure, false)).toBe('failed');
  });

  it('without it, the same words in a plain error are read as evidence (a timeout after send is unknown)', () => {
    const plain = Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' });
    const failure = captureFailure(plain);
    expect(failure.timedOut).toBe(true);
    expect(failureStatus(failure, false)).toBe('unknown');
  });
});
