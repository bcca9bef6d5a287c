import { describe, expect, it } from 'vitest';
import { encodeCursor } from './audit-cursor.js';
import { auditWhere, parseAuditQuery } from './audit-query.js';

describe('audit query', () => {
  it('defaults to the newest 100 as JSON, with no filter at all (row-level security scopes the tenant)', () => {
    const query = parseAuditQuery({});
    expect(query).toMatchObject({ order: 'desc', limit: 100, format: 'json', after: null });
    expect(auditWhere(query)).toEqual({ where: '', params: [] });
  });

  it('turns every filter into a bound parameter, never into SQL text', () => {
    const query = parseAuditQuery({
      from: '2026-01-01T00:00:00Z',
      to: '2026-02-01T00:00:00Z',
      class: 'permission',
      level: 'block',
      tool: "x'; DROP TABLE interventions; --",
      principal: 'svc-reporting',
      run: 'run-1',
      limit: '20',
      cursor: encodeCursor({ seq: 77, order: 'desc' }),
    });
    const { where, params } = auditWhere(query);
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
    expect(query.limit).toBe(20);
  });

  it('pages forward with seq > cursor in ascending order', () => {
    const query = parseAuditQuery({ order: 'asc', cursor: encodeCursor({ seq: 5, order: 'asc' }) });
    expect(auditWhere(query)).toEqual({ where: 'WHERE seq > $1', params: [5] });
  });

  it('names the bad parameter', () => {
    expect(() => parseAuditQuery({ limit: '501' })).toThrow(/limit/);
    expect(() => parseAuditQuery({ limit: '0' })).toThrow(/limit/);
    expect(() => parseAuditQuery({ class: 'flaky' })).toThrow(/class/);
    expect(() => parseAuditQuery({ from: 'yesterday' })).toThrow(/from/);
    expect(() => parseAuditQuery({ format: 'xml' })).toThrow(/format/);
    expect(() => parseAuditQuery({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toThrow(
      /to: must be later than from/,
    );
  });

  it('refuses unknown parameters instead of silently ignoring a typo (or a tenant)', () => {
    expect(() => parseAuditQuery({ tenant: 'globex' })).toThrow(/unknown query parameter\(s\): tenant/);
  });
});
