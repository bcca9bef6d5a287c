import { describe, expect, it } from 'vitest';
import { CliError } from '../io/exit-codes.js';
import { resolutionBody } from './resolution-body.js';

const KEY = 'fleet|acme|p=svc-reporting|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0';

describe('resolutionBody: what ack and resolve send to POST /v1/resolutions', () => {
  it('ack: an acknowledgement by the given operator, with a default reason', () => {
    expect(resolutionBody({ keyId: KEY, resolution: 'acknowledged', by: 'alice@acme' }, {})).toEqual({
      keyId: KEY,
      resolution: 'acknowledged',
      by: 'alice@acme',
      reason: 'acknowledged from the command line',
    });
  });

  it('who acts: --by, else $TOKENCIRCUIT_OPERATOR, else the login name', () => {
    const login = () => 'bob@cli';
    expect(resolutionBody({ keyId: KEY, resolution: 'reset' }, { TOKENCIRCUIT_OPERATOR: 'carol' }, login).by).toBe(
      'carol',
    );
    expect(resolutionBody({ keyId: KEY, resolution: 'reset' }, {}, login).by).toBe('bob@cli');
    expect(resolutionBody({ keyId: KEY, resolution: 'reset', by: 'dave' }, { TOKENCIRCUIT_OPERATOR: 'x' }).by).toBe(
      'dave',
    );
  });

  it('resolve --as takes the resolutions that close or confirm a key, and nothing else', () => {
    for (const kind of ['reset', 'auth_granted', 'resource_confirmed', 'effect_confirmed', 'effect_absent'])
      expect(resolutionBody({ keyId: KEY, resolution: kind, by: 'a', reason: 'r' }, {}).resolution).toBe(kind);
    expect(() => resolutionBody({ keyId: KEY, resolution: 'forgive', by: 'a' }, {})).toThrow(
      /--as: "forgive" is not one of reset, auth_granted, resource_confirmed, effect_confirmed, effect_absent/,
    );
  });

  it('refuses an empty key, operator or reason as usage errors (exit 2) before any request', () => {
    const cases = [
      { keyId: '  ', resolution: 'reset', by: 'a' },
      { keyId: KEY, resolution: 'reset', by: ' ' },
      { keyId: KEY, resolution: 'reset', by: 'a', reason: '' },
    ];
    for (const input of cases) {
      let error: unknown;
      try {
        resolutionBody(input, {}, () => '');
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
    }
  });
});
