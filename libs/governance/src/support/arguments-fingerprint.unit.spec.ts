import { describe, expect, it } from 'vitest';
import { argumentsFingerprint } from './arguments-fingerprint.js';

describe('argumentsFingerprint: "structurally changed" means different canonical JSON', () => {
  it('ignores key order and whitespace', () => {
    expect(argumentsFingerprint({ sql: 'SELECT 1', limit: 10 })).toBe(
      argumentsFingerprint(JSON.parse('{ "limit": 10,  "sql": "SELECT 1" }')),
    );
  });

  it('is the same string it always was (failure state stores it)', () => {
    expect(argumentsFingerprint({ sql: 'SELECT 1', limit: 10 })).toBe('h:rb3ucwufes:29');
  });

  it('takes what a tool framework hands over without throwing (Dates, NaN, functions, lone surrogates)', () => {
    expect(argumentsFingerprint({ at: new Date(0), n: Number.NaN, f: () => 1, s: '\ud800' })).toMatch(
      /^h:[0-9a-z]+:\d+$/,
    );
  });

  it('sees a changed value, type, or shape', () => {
    const base = argumentsFingerprint({ date: '2024-13-01', limit: 10 });
    expect(argumentsFingerprint({ date: '2024-12-01', limit: 10 })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: '10' })).not.toBe(base);
    expect(argumentsFingerprint({ date: '2024-13-01', limit: 10, tz: 'UTC' })).not.toBe(base);
  });
});
