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

  // The decision relay had a rule of its own (only SQLSTATE 22, 23 and 54 were the record), so these
  // failed every relay round instead of parking the row; failureKind is now the one rule for both.
  describe('where the relay used to disagree', () => {
    it.each([
      ['P0001', 'raise_exception: a trigger or function RAISEs over the values it was given'],
      ['P0002', 'no_data_found: SELECT INTO STRICT found no row for this input'],
      ['P0003', 'too_many_rows: SELECT INTO STRICT found several'],
      ['P0004', 'assert_failure: an ASSERT on the row failed'],
    ])('PL/pgSQL SQLSTATE %s (%s) is the record: the same row raises again', (code, message) => {
      expect(failureKind(pgError(code, message))).toBe('record');
    });

    it('a JavaScript error while building or appending a row, with no SQLSTATE and no connection message, is the record', () => {
      expect(
        failureKind(
          new Error('appendInterventions: intervention id i-1 already belongs to another tenant; ids must be unique'),
        ),
      ).toBe('record');
      expect(failureKind(new TypeError('Invalid intervention: expected string, received undefined'))).toBe('record');
      expect(failureKind(new Error('wrapped', { cause: pgError('23505', 'unique violation') }))).toBe('record');
    });

    it('what both rules called the infrastructure still is', () => {
      // Our append-only triggers refuse with insufficient_privilege, not P0: calling them is the code's fault.
      expect(failureKind(pgError('42501', 'interventions is an append-only audit trail: UPDATE refused'))).toBe(
        'infrastructure',
      );
      expect(failureKind(pgError('25P02', 'current transaction is aborted'))).toBe('infrastructure');
      expect(failureKind(new Error('Client has encountered a connection error and is not queryable'))).toBe(
        'infrastructure',
      );
    });
  });
});
