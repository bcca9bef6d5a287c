import { describe, expect, it } from 'vitest';
import { auditPageWhere } from './audit-page-where.js';
import type { InterventionFilter } from './read-audit-page.js';

const ANY: InterventionFilter = {
  from: null,
  to: null,
  failureClass: null,
  level: null,
  tool: null,
  principal: null,
  run: null,
};

describe('auditPageWhere', () => {
  it('has no condition at all without filters: row-level security, not a predicate, scopes the tenant', () => {
    expect(auditPageWhere({ filter: ANY, order: 'desc', afterSeq: null, limit: 100 })).toEqual({
      where: '',
      params: [],
    });
  });

  it('turns every filter into a bound parameter, never into SQL text', () => {
    const { where, params } = auditPageWhere({
      filter: {
        from: '2026-01-01T00:00:00Z',
        to: '2026-02-01T00:00:00Z',
        failureClass: 'permission',
        level: 'block',
        tool: "x'; DROP TABLE interventions; --",
        principal: 'svc-reporting',
        run: 'run-1',
      },
      order: 'desc',
      afterSeq: 77,
      limit: 20,
    });
    expect(where).toBe(
      'WHERE issued_at >= $1::timestamptz AND issued_at < $2::timestamptz AND failure_class = $3 AND level = $4 AND tool_name = $5 AND principal = $6 AND run = $7 AND seq < $8',
    );
    expect(params).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-02-01T00:00:00Z',
      'permission',
      'block',
      "x'; DROP TABLE interventions; --",
      'svc-reporting',
      'run-1',
      77,
    ]);
  });

  it('pages forward with seq > position in ascending order', () => {
    expect(auditPageWhere({ filter: ANY, order: 'asc', afterSeq: 5, limit: 10 })).toEqual({
      where: 'WHERE seq > $1',
      params: [5],
    });
  });
});
