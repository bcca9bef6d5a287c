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
  'SQLITE_BUSY: ',
  'sqlite_busy',
  'database is locked',
  'Database is locked',
  'disk I/O error',
  '550 5.1.1 ',
  '550 4.1.1 ',
  '421-4.7.0 ',
  "(535, b'5.7.8 ",
  "(554, b'",
  '404 (NOT-FOUND)',
  'NOT_FOUND - ',
  'A_B - ',
  'LDAP: error code 49',
  "{'result': 32, 'desc': 'x'}",
  'NXDOMAIN',
  'nxdomain',
  'This server does not host this topic-partition',
  'this server does not host this topic-partition',
  "(406, 'PRECONDITION_FAILED - x')",
  'mkdir /x: file exists',
  ': File Exists',
  '[Errno 17] File exists',
  'the file exists',
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

  it('reads an SMTP reply only when its enhanced code repeats the reply class (RFC 3463), or in smtplib form', () => {
    expect(readCodes('550 5.1.1 <a@b.c>: user unknown').smtpReplies).toEqual([{ code: 550, enhanced: '5.1.1' }]);
    expect(readCodes('550 4.1.1 mismatched classes').smtpReplies).toEqual([]);
    expect(readCodes("(554, b'Transaction failed')").smtpReplies).toEqual([{ code: 554, enhanced: null }]);
    expect(readCodes('version 5.1.1 of the client').smtpReplies).toEqual([]);
  });

  it("names SQLite's fixed texts as the result codes they stand for", () => {
    expect(readCodes('database is locked').outerNames).toEqual(['SQLITE_BUSY']);
    expect(readCodes('SQLITE_IOERR_WRITE: disk I/O error').outerNames).toEqual(['SQLITE_IOERR_WRITE', 'SQLITE_IOERR']);
    expect(mayHoldCodes('database is locked')).toBe(true);
  });
});

describe('PostgreSQL message templates printed without their SQLSTATE', () => {
  it.each([
    ['null value in column "email" of relation "users" violates not-null constraint', '23502'],
    ['insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"', '23503'],
    ['duplicate key value violates unique constraint "users_email_key"', '23505'],
    ['new row for relation "orders" violates check constraint "orders_total_check"', '23514'],
    ['new row violates row-level security policy for table orders', '42501'],
    ['invalid input syntax for type integer: "abc"', '22P02'],
    ['value too long for type character varying(10)', '22001'],
  ])('reads %j as SQLSTATE %s', (text, state) => {
    expect(messageCodes(text).sqlState).toBe(state);
  });

  it('lets an explicit SQLSTATE in the text speak first, and finds nothing in prose without a template', () => {
    expect(messageCodes('ERROR: duplicate key value violates unique constraint "k" (SQLSTATE 23P01)').sqlState).toBe(
      '23P01',
    );
    expect(messageCodes('the policy violates nothing').sqlState).toBeNull();
  });
});
