import { describe, expect, it } from 'vitest';
import { CloudEventSchema } from './cloud-event.js';

const minimal = { specversion: '1.0', id: 'e-1', source: '/tenants/acme/agents/a', type: 'dev.tokencircuit.x.v1' };
const issuesOf = (input: unknown) => CloudEventSchema.safeParse(input).error?.issues ?? [];

describe('CloudEvent context attributes', () => {
  it('accept the required four alone', () => {
    expect(issuesOf(minimal)).toEqual([]);
  });

  it.each([['specversion'], ['id'], ['source'], ['type']])('require %s', (name) => {
    const { [name as keyof typeof minimal]: _, ...rest } = minimal;
    expect(issuesOf(rest).map((i) => i.path.join('.'))).toEqual([name]);
  });

  it('refuse another spec version', () => {
    expect(issuesOf({ ...minimal, specversion: '0.3' }).map((i) => i.path.join('.'))).toEqual(['specversion']);
  });

  it('refuse a time without a UTC offset (RFC 3339 needs one)', () => {
    expect(issuesOf({ ...minimal, time: '2025-03-14T09:26:53' }).map((i) => i.path.join('.'))).toEqual(['time']);
  });
});

describe('CloudEvent extension attribute names', () => {
  it.each([['tenantid'], ['runid'], ['traceparent'], ['a1'], ['x'.repeat(20)]])('accept %s', (name) => {
    expect(issuesOf({ ...minimal, [name]: 'v' })).toEqual([]);
  });

  it.each([
    ['tenantId', 'upper case'],
    ['tenant_id', 'underscore'],
    ['tenant-id', 'hyphen'],
    ['x'.repeat(21), 'longer than 20 characters'],
    ['tënant', 'non-ASCII'],
  ])('refuse %s (%s)', (name) => {
    const issues = issuesOf({ ...minimal, [name]: 'v' });
    expect(issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [name, `"${name}" is not a valid CloudEvents attribute name`],
    ]);
  });

  it('accept scalar extension values and refuse structured ones', () => {
    expect(issuesOf({ ...minimal, retries: 3, sampled: true })).toEqual([]);
    expect(issuesOf({ ...minimal, tags: ['a'] }).map((i) => i.path.join('.'))).toEqual(['tags']);
  });
});
