import { describe, expect, it } from 'vitest';
import { generateTrace } from './agent-trace.js';

const requested = (events: ReturnType<typeof generateTrace>) =>
  events.flatMap((e) => (e.type === 'tool_call.requested' ? [e.data.call] : []));

describe('generateTrace', () => {
  it('is deterministic for a seed', () => {
    expect(generateTrace({ events: 500, seed: 7 })).toEqual(generateTrace({ events: 500, seed: 7 }));
  });

  it('spreads a wide fleet over many principals and resources, the default over few', () => {
    const narrow = requested(generateTrace({ events: 20_000, seed: 3 }));
    const wide = requested(generateTrace({ events: 20_000, seed: 3, principals: 2_000, resources: 1_000 }));
    const distinct = (calls: typeof narrow, of: (c: (typeof narrow)[number]) => string | null) =>
      new Set(calls.map(of)).size;
    expect(narrow.length).toBeGreaterThan(1_000);
    expect(distinct(narrow, (c) => c.principal)).toBeLessThanOrEqual(4);
    expect(distinct(narrow, (c) => c.resourceId)).toBeLessThanOrEqual(3 * 2);
    expect(distinct(wide, (c) => c.principal)).toBeGreaterThan(1_000);
    expect(distinct(wide, (c) => c.resourceId)).toBeGreaterThan(1_000);
  });
});
