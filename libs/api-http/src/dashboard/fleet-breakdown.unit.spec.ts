import { describe, expect, it } from 'vitest';
import { breakdownOf, NONE, type HeldKey } from './fleet-breakdown.js';

const key = (over: Partial<HeldKey>): HeldKey => ({
  keyId: 'k',
  scope: 'fleet',
  status: 'blocked',
  run: null,
  principal: 'svc-reporting',
  toolName: 'sql.query',
  resourceClass: 'sql_namespace',
  resourceId: 'finance',
  failureClass: 'permission',
  retryCount: 0,
  budget: 0,
  acknowledged: false,
  level: 'block',
  nextAction: 'stop_request_authorization',
  interventionId: 'i',
  issuedAt: '2026-12-01T00:00:00.000Z',
  interventions: 1,
  ...over,
});

describe('fleet breakdown', () => {
  it('counts held keys and paged keys per principal, tool, resource and class, largest first', () => {
    const breakdown = breakdownOf([
      key({ keyId: 'a' }),
      key({ keyId: 'b', resourceId: 'hr', level: 'page' }),
      key({
        keyId: 'c',
        scope: 'run',
        principal: null,
        toolName: 'http.post',
        resourceClass: null,
        resourceId: null,
        failureClass: 'ambiguous_effect',
        level: 'page',
      }),
    ]);
    expect(breakdown.principal).toEqual([
      { value: 'svc-reporting', keys: 2, paged: 1 },
      { value: NONE, keys: 1, paged: 1 },
    ]);
    expect(breakdown.tool).toEqual([
      { value: 'sql.query', keys: 2, paged: 1 },
      { value: 'http.post', keys: 1, paged: 1 },
    ]);
    expect(breakdown.resource).toEqual([
      { value: NONE, keys: 1, paged: 1 },
      { value: 'sql_namespace: finance', keys: 1, paged: 0 },
      { value: 'sql_namespace: hr', keys: 1, paged: 1 },
    ]);
    expect(breakdown.class).toEqual([
      { value: 'permission', keys: 2, paged: 1 },
      { value: 'ambiguous_effect', keys: 1, paged: 1 },
    ]);
  });

  it('is empty for a quiet fleet', () => {
    expect(breakdownOf([])).toEqual({ principal: [], tool: [], resource: [], class: [] });
  });
});
