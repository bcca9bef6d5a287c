import { describe, expect, it } from 'vitest';
import { DeadLetterSinkError, type DeadLetter } from '@tokencircuit/projection';
import { DeadLetterPublishError, parkingFailureOf } from './parking-failure.js';

const letter = (partition: number): DeadLetter => ({
  source: { topic: 't', partition, offset: '1', key: null, value: null, headers: {} },
  code: 'not_a_cloudevent',
  reason: 'r',
});

describe('parkingFailureOf: which failures count as a failed parking attempt, and against which partitions', () => {
  it('names the partitions whose letters the sink could not publish, and the innermost reason', () => {
    const broker = Object.assign(new Error('The request included a message larger than the max message size'), {
      name: 'KafkaJSProtocolError',
    });
    const publish = new DeadLetterPublishError([letter(3), letter(1), letter(3)], broker);
    const thrown = new DeadLetterSinkError(`dead-letter sink failed: ${publish.message}`, { cause: publish });
    expect(parkingFailureOf(thrown)).toEqual({
      partitions: [3, 1],
      reason:
        'dead-letter sink failed: KafkaJSProtocolError: The request included a message larger than the max message size',
    });
  });

  it('blames every partition of the transaction when the sink failed without naming letters', () => {
    const thrown = new DeadLetterSinkError('dead-letter sink failed: x', { cause: new TypeError('boom') });
    expect(parkingFailureOf(thrown)).toEqual({ partitions: null, reason: 'dead-letter sink failed: TypeError: boom' });
  });

  it('is null for any other failure (Postgres, a broker outage while projecting): those are retried as before', () => {
    expect(parkingFailureOf(Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }))).toBe(null);
    expect(parkingFailureOf('a string')).toBe(null);
  });
});
