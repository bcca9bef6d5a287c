import { describe, expect, it } from 'vitest';
import { failureStatesWhere } from './failure-states-where.js';

describe('failureStatesWhere', () => {
  it('builds one bound parameter per filter and no tenant predicate (row-level security isolates tenants)', () => {
    const { where, params } = failureStatesWhere({
      filter: {
        blocked: true,
        status: null,
        principal: "svc' OR 1=1 --",
        tool: 'sql_query',
        failureClass: 'permission',
        scope: 'fleet',
        run: 'r-1',
      },
      after: { updatedMicros: '1767607200000000', keyId: 'k' },
      limit: 5,
    });
    expect(where).not.toMatch(/tenant/);
    expect(where).not.toContain('svc');
    expect(params).toEqual([
      ['blocked', 'exhausted', 'awaiting_verification'],
      "svc' OR 1=1 --",
      'sql_query',
      'permission',
      'fleet',
      'r-1',
      '1767607200000000',
      'k',
    ]);
  });

  it('negates the blocking statuses for blocked=false and has no condition without filters', () => {
    const none = {
      blocked: null,
      status: null,
      principal: null,
      tool: null,
      failureClass: null,
      scope: null,
      run: null,
    };
    expect(failureStatesWhere({ filter: none, after: null, limit: 1 })).toEqual({ where: '', params: [] });
    expect(failureStatesWhere({ filter: { ...none, blocked: false }, after: null, limit: 1 }).where).toBe(
      'WHERE NOT (status = ANY($1::text[]))',
    );
  });
});
