import { describe, expect, it } from 'vitest';
import { reconcileArguments, reconcileFinding, valueAt } from './reconcile-check.js';
import { reconcileMessage } from './reconcile-message.js';

const text = (value: unknown, isError = false) => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  isError,
});

describe('reconciling an unknown write with a read tool', () => {
  it("maps the read's arguments from the write's, naming the ones that are missing", () => {
    const reconcile = { tool: 'get_ticket', arguments: { id: 'ticketId', project: 'project' } };
    expect(reconcileArguments(reconcile, { ticketId: 'T-1', project: 'ops', title: 'x' })).toEqual({
      arguments: { id: 'T-1', project: 'ops' },
      missing: [],
    });
    expect(reconcileArguments(reconcile, { ticketId: 'T-1' })).toEqual({
      arguments: { id: 'T-1' },
      missing: ['project'],
    });
  });

  it('JSONPath-lite: $, .name and [index]; anything missing is undefined', () => {
    const value = { items: [{ id: 'a' }, { id: null }], n: 0 };
    expect(valueAt(value, '$')).toBe(value);
    expect(valueAt(value, '$.items[0].id')).toBe('a');
    expect(valueAt(value, '$.items[1].id')).toBeNull();
    expect(valueAt(value, '$.items[2].id')).toBeUndefined();
    expect(valueAt(value, '$.n')).toBe(0);
    expect(valueAt(value, '$.n.x')).toBeUndefined();
    expect(valueAt(value, '$.items.id')).toBeUndefined();
    expect(valueAt(value, '$[0]')).toBeUndefined();
    expect(valueAt({ toString: 1 }, '$.constructor')).toBeUndefined();
  });

  it('exists: a value that is not null at the path confirms; absent or null refutes', () => {
    const reconcile = { tool: 'get_ticket', arguments: {}, exists: '$.id' };
    expect(reconcileFinding(reconcile, text({ id: 'T-1' }))).toBe('confirmed');
    expect(reconcileFinding(reconcile, { content: [], structuredContent: { id: 'T-1' } })).toBe('confirmed');
    expect(reconcileFinding(reconcile, text({ id: null }))).toBe('refuted');
    expect(reconcileFinding(reconcile, text({ error: 'not found' }, true))).toBe('refuted');
    expect(reconcileFinding(reconcile, { content: [{ type: 'text', text: 'not json' }] })).toBe('refuted');
  });

  it('without exists: a result that is not an error confirms', () => {
    const reconcile = { tool: 'get_ticket', arguments: {} };
    expect(reconcileFinding(reconcile, text({}))).toBe('confirmed');
    expect(reconcileFinding(reconcile, text('not found', true))).toBe('refuted');
  });

  it('tells the model what was found and what to do, in two sentences', () => {
    expect(reconcileMessage('t__create', 'get', 'confirmed')).toBe(
      'The outcome of t__create was unknown, so TokenCircuit checked with get: it took effect. Do not send it again; go on as if it succeeded.',
    );
    expect(reconcileMessage('t__create', 'get', 'refuted')).toMatch(/did not take effect\. You may send it again\.$/);
    expect(reconcileMessage('t__create', 'get', 'inconclusive')).toMatch(/could not check it with get\. Do not send/);
  });
});
