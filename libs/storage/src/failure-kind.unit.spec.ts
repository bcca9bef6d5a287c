import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from './connection-errors.js';
import { failureKind } from './failure-kind.js';

const pgError = (code: string, message = 'refused') => Object.assign(new Error(message), { code });

describe('failureKind: is a failed write about the record or about the infrastructure', () => {
  it.each([
    ['22008', 'date/time field value out of range'],
    ['22P02', 'invalid input syntax'],
    ['22P05', 'unsupported Unicode escape sequence'],
    ['23514', 'check constraint violated'],
    ['23505', 'unique violation'],
    ['54001', 'stack depth limit exceeded'],
    ['P0001', 'raised by a trigger'],
  ])('SQLSTATE %s (%s) is the record', (code, message) => {
    expect(failureKind(pgError(code, message))).toBe('record');
  });

  it.each([
    ['08006', 'connection failure'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57014', 'canceling statement due to statement timeout'],
    ['53100', 'disk full'],
    ['53300', 'too many connections'],
    ['40001', 'serialization failure'],
    ['40P01', 'deadlock detected'],
    ['42P01', 'relation does not exist'],
    ['42501', 'permission denied'],
    ['28P01', 'password authentication failed'],
    ['3D000', 'database does not exist'],
    ['XX000', 'internal error'],
  ])('SQLSTATE %s (%s) is the infrastructure: every record would fail alike', (code, message) => {
    expect(failureKind(pgError(code, message))).toBe('infrastructure');
  });

  it('JavaScript errors raised while handling a record are the record', () => {
    expect(failureKind(new RangeError('Maximum call stack size exceeded'))).toBe('record');
    expect(failureKind(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe('record');
    expect(failureKind('a thrown string')).toBe('record');
  });

  it('socket errors, connection messages, retriable errors and wrapped causes are the infrastructure', () => {
    expect(failureKind(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(
      'infrastructure',
    );
    expect(failureKind(new Error('Connection terminated unexpectedly'))).toBe('infrastructure');
    expect(failureKind(new Error('timeout exceeded when trying to connect'))).toBe('infrastructure');
    expect(failureKind(new DatabaseUnreachableError('down'))).toBe('infrastructure');
    expect(failureKind(Object.assign(new Error('broker gone'), { retriable: true }))).toBe('infrastructure');
    expect(failureKind(new Error('wrapped', { cause: pgError('57P01') }))).toBe('infrastructure');
  });
});
