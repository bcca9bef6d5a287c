import { describe, expect, it } from 'vitest';
import { encodeCursor } from './audit-cursor.js';
import { parseAuditQuery } from './audit-query.js';

describe('audit query', () => {
  it('defaults to the newest 100 as JSON, with no filter at all (row-level security scopes the tenant)', () => {
    const query = parseAuditQuery({});
    expect(query).toMatchObject({ order: 'desc', limit: 100, format: 'json', after: null });
    expect(query.filter).toEqual({
      from: null,
      to: null,
      failureClass: null,
      level: null,
      tool: null,
      principal: null,
      run: null,
    });
  });

  it('passes every filter and the cursor position through as parsed values', () => {
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
    expect(query).toEqual({
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
      after: { seq: 77, order: 'desc' },
      limit: 20,
      format: 'json',
    });
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
