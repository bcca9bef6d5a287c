import { describe, expect, it } from 'vitest';
import { providerMeaning } from './provider-codes.js';
import { sqliteNumber } from './provider-sqlite.js';

describe('SQLite result codes (sqlite.org/rescode.html)', () => {
  it('names a primary and an extended code by number', () => {
    expect(sqliteNumber(5)?.[0]).toBe('SQLITE_BUSY');
    expect(sqliteNumber(2067)?.[0]).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(sqliteNumber(2067)?.[1]).toMatchObject({ failureClass: 'invariant_violation', duplicateOnRetry: true });
  });

  it('reads an extended code it does not list as its primary code (the low byte)', () => {
    // SQLITE_IOERR_SHORT_READ (522) and an extended BUSY value not in the table.
    expect(sqliteNumber(522)).toEqual(['SQLITE_IOERR(522)', sqliteNumber(10)![1]]);
    expect(sqliteNumber((9 << 8) | 5)).toEqual(['SQLITE_BUSY(2309)', sqliteNumber(5)![1]]);
    expect(sqliteNumber(99)).toBeNull();
  });

  it('finds every name in the provider table, whatever the dialect', () => {
    expect(providerMeaning('SQLITE_BUSY')).toMatchObject({ failureClass: 'transient', effect: 'rejected' });
    expect(providerMeaning('SQLITE_IOERR_FSYNC')).toMatchObject({ failureClass: 'transient', effect: 'indeterminate' });
    expect(providerMeaning('SQLITE_READONLY')).toMatchObject({ failureClass: 'permission' });
    expect(providerMeaning('SQLITE_CORRUPT')).toMatchObject({ failureClass: 'invariant_violation' });
  });
});
