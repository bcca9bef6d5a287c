import { describe, expect, it } from 'vitest';
import { diffDigests, differingColumns, StateDigest } from './state-digest.js';

const digestOf = (states: Array<[string, unknown]>, outbox: string[]) => {
  const d = new StateDigest();
  for (const [keyId, state] of states) d.addState(keyId, state);
  for (const id of outbox) d.addOutboxId(id);
  return d.finish();
};

describe('StateDigest: one sha256 over the failure states and the outbox ids', () => {
  const states: Array<[string, unknown]> = [
    [
      'run|acme|run=r1|web_search|api_endpoint|~|transient|seb=0',
      { status: 'open', retryCount: 1, lastReceipts: ['503'] },
    ],
    ['run|acme|run=r2|sql_query|sql_namespace|~|validation|seb=0', { status: 'exhausted', retryCount: 1 }],
  ];
  const outbox = ['run|acme|run=r1|…@v1', 'run|acme|run=r1|…@v2'];

  it('equal rows give equal digests, whatever order jsonb kept their members in', () => {
    const reordered: Array<[string, unknown]> = [
      [states[0]![0], { lastReceipts: ['503'], retryCount: 1, status: 'open' }],
      [states[1]![0], { retryCount: 1, status: 'exhausted' }],
    ];
    expect(digestOf(reordered, outbox).digest).toBe(digestOf(states, outbox).digest);
  });

  it('any change in a state, a missing key or a missing outbox id changes the digest', () => {
    const base = digestOf(states, outbox).digest;
    expect(
      digestOf([[states[0]![0], { status: 'open', retryCount: 2, lastReceipts: ['503'] }], states[1]!], outbox).digest,
    ).not.toBe(base);
    expect(digestOf([states[0]!], outbox).digest).not.toBe(base);
    expect(digestOf(states, outbox.slice(0, 1)).digest).not.toBe(base);
  });

  it('a state cannot pass for an outbox id or the other way round (the sections are separated)', () => {
    expect(digestOf([], ['a']).digest).not.toBe(digestOf([['a', null]], []).digest);
  });

  it('refuses rows out of key-id order: both sides must be read in the same order to compare', () => {
    const d = new StateDigest();
    d.addState('b', {});
    expect(() => d.addState('a', {})).toThrow(/strictly increasing key-id order/);
    d.addOutboxId('x');
    expect(() => d.addState('c', {})).toThrow(/before the outbox ids/);
  });

  it('the diff names the keys only on one side, the keys that differ, and the outbox ids missing', () => {
    const live = digestOf(states, outbox);
    const rebuilt = digestOf(
      [
        [states[0]![0], { status: 'open', retryCount: 2 }],
        ['z-only-rebuilt', {}],
      ],
      [outbox[0]!, 'z@v1'],
    );
    expect(diffDigests(live, rebuilt)).toEqual({
      onlyLive: [states[1]![0]],
      onlyRebuilt: ['z-only-rebuilt'],
      differing: [states[0]![0]],
      outboxOnlyLive: [outbox[1]],
      outboxOnlyRebuilt: ['z@v1'],
    });
  });
});

describe('differingColumns: what replay names for a key whose stored row differs from the fold', () => {
  const row = { status: 'open', budget: 2, run: 'r1', state: { status: 'open', retryCount: 1 } };

  it('names a flat column edited without the state document (what preflight filters on)', () => {
    expect(differingColumns({ ...row, status: 'resolved' }, row)).toEqual(['status']);
  });

  it('ignores member order inside jsonb, and names every column that differs in name order', () => {
    const reordered = { ...row, state: { retryCount: 1, status: 'open' } };
    expect(differingColumns(reordered, row)).toEqual([]);
    expect(differingColumns({ ...row, run: null, budget: 0 }, row)).toEqual(['budget', 'run']);
  });
});
