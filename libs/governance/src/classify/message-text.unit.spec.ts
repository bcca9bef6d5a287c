import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageMeaning, notSentPhrase } from './message-text.js';

// Phrases of every pattern, so texts often hold several (order decides which one speaks).
const PHRASES = [
  'connection refused',
  'Connection Refused',
  'could not connect to server',
  'name or service not known',
  'temporary failure in name resolution',
  'rate limit',
  'quota exceeded',
  'permission denied',
  'socket hang up',
  'timed out',
  'service unavailable',
  'already exists',
  'not found',
  'conflict',
  'invalid',
  ' ',
  ': ',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PHRASES), fc.string({ maxLength: 5 })), { maxLength: 5 })
  .map((parts) => parts.join(' '));

describe('notSentPhrase: messageMeaning, only when it proves the request never left', () => {
  it('agrees with messageMeaning for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const meaning = messageMeaning(t);
        expect(notSentPhrase(t)).toEqual(meaning?.effect === 'not_sent' ? meaning : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('lets an earlier phrase speak first, as messageMeaning does', () => {
    expect(notSentPhrase('connection refused')?.reason).toBe('message:connection_refused');
    expect(notSentPhrase('permission denied: connection refused')).toBeNull();
    expect(notSentPhrase(null)).toBeNull();
  });
});
