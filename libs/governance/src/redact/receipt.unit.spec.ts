import { RawErrorSchema, type RawErrorInput } from '@tokencircuit/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RECEIPT_MAX_CHARS, receiptOf } from './receipt.js';
import { redact } from './redact.js';

const receipt = (input: RawErrorInput) => receiptOf(RawErrorSchema.parse(input));

describe('receiptOf', () => {
  it.each([
    [
      { httpStatus: 403, message: 'Resource not accessible by integration' },
      'HTTP 403 Forbidden: Resource not accessible by integration',
    ],
    [
      { sqlState: '42501', message: 'permission denied for table users' },
      'SQLSTATE 42501: permission denied for table users',
    ],
    [{ grpcCode: 14, message: 'Connection dropped' }, 'gRPC UNAVAILABLE: Connection dropped'],
    [
      { jsonRpcCode: -32602, message: 'Unknown tool: invalid_tool_name' },
      'JSON-RPC -32602: Unknown tool: invalid_tool_name',
    ],
    [{ errno: 'ECONNRESET', name: 'ECONNRESET', message: 'read ECONNRESET' }, 'ECONNRESET: read ECONNRESET'],
    [
      { httpStatus: 400, name: 'ThrottlingException', message: 'Rate exceeded' },
      'HTTP 400 Bad Request ThrottlingException: Rate exceeded',
    ],
    [{ httpStatus: 429, headers: { 'Retry-After': '30' } }, 'HTTP 429 Too Many Requests (retry-after: 30)'],
    [{ httpStatus: 599, name: 'Error', message: 'odd' }, 'HTTP 599: odd'],
    [{ message: 'plain message only' }, 'plain message only'],
    [{}, 'error without details'],
  ] as const)('%j → %s', (input, expected) => {
    expect(receipt(input)).toBe(expected);
  });

  it('collapses a multi-line message into one line', () => {
    expect(receipt({ sqlState: '08001', message: 'could not connect to server:\n\tConnection refused\n' })).toBe(
      'SQLSTATE 08001: could not connect to server: Connection refused',
    );
  });

  it('redacts secrets before anyone can store the line', () => {
    const line = receipt({
      httpStatus: 401,
      message:
        'Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123 for bob@example.com via postgres://app:hunter2@db/x',
    });
    expect(line).toBe(
      'HTTP 401 Unauthorized: Incorrect API key provided: [REDACTED:openai_key] for [REDACTED:email] via postgres://app:[REDACTED:password]@db/x',
    );
  });

  it('caps the line, never cutting a marker in half', () => {
    const line = receipt({
      httpStatus: 500,
      message: `${'x'.repeat(RECEIPT_MAX_CHARS - 30)} token=${'A1'.repeat(40)} tail`,
    });
    expect(line.length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS);
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toMatch(/\[REDACTED[^\]]*…$/);
  });

  it('property: bounded, redacted, and a fixpoint of redact, for any message', () => {
    const secret = fc.string({
      unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'),
      minLength: 24,
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), secret, fc.string({ maxLength: 600 }), (before, key, after) => {
        const line = receipt({ httpStatus: 502, message: `${before} password=${key} ${after}`.slice(0, 4096) });
        expect(line.length).toBeLessThanOrEqual(RECEIPT_MAX_CHARS);
        expect(line).not.toContain(key);
        expect(redact(line)).toBe(line);
      }),
      { numRuns: 300 },
    );
  });
});
