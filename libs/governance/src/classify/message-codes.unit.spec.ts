import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHoldCodes, messageCodes, readCodes } from './message-codes.js';

// Fragments of every format messageCodes reads, in their real and in near-miss spellings.
const PIECES = [
  '{"code": "',
  "'error': '",
  '"status": 503',
  '<Code>NoSuchKey</Code>',
  'An error occurred (ThrottlingException) when calling',
  'an error occurred (x) when calling',
  'ReplyError: WRONGTYPE ',
  'NOAUTH ',
  'ER_DUP_ENTRY',
  'er_dup_entry',
  'Error 1062 (23000): ',
  'error ',
  'status code 503',
  'status code ',
  'HTTP/1.1 502',
  'http error ',
  'MCP error -32602',
  'mcp error -',
  'connect ECONNREFUSED',
  'connect econnrefused',
  'UND_ERR_SOCKET',
  'CERT_HAS_EXPIRED',
  'SQLSTATE 23505',
  'sqlstate abcde',
  'SqlState: xxxxx',
  '14 UNAVAILABLE: ',
  'rpc error: code = unavailable',
  'rpc error: code = Unavailable',
  'StatusCode.NOT_FOUND',
  'statuscode.not_found',
  'upstream unavailable',
  'not found',
  'Forbidden',
  ' ',
  ': ',
  '(',
  ')',
  '=',
  '.',
  '-',
  '_',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { maxLength: 6 })
  .map((parts) => parts.join(''));

describe('messageCodes: the shortcut for text that can hold no code', () => {
  it('skips only texts in which reading every pattern finds nothing', () => {
    let skipped = 0;
    fc.assert(
      fc.property(text, (t) => {
        if (mayHoldCodes(t)) return;
        skipped += 1;
        expect(readCodes(t)).toEqual(messageCodes(null));
      }),
      { numRuns: 3000 },
    );
    // The property must have been exercised on texts that come close to every format.
    expect(skipped).toBeGreaterThan(100);
  });

  it('answers the same as reading every pattern, whatever the text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(messageCodes(t)).toEqual(readCodes(t));
      }),
      { numRuns: 1000 },
    );
  });

  it('skips plain lower-case messages', () => {
    for (const t of ['upstream unavailable', 'not found', 'socket timeout', 'rate limited'])
      expect(mayHoldCodes(t)).toBe(false);
  });
});
