import { describe, expect, it } from 'vitest';
import type { ToolCall } from '@tokencircuit/contracts';
import type { FailureState } from '@tokencircuit/governance';
import { stateCoordinateHash } from '@tokencircuit/storage';
import { CandidateCache } from './candidate-cache.js';

const call = (run: string, principal: string | null = 'svc-1'): ToolCall =>
  ({ run, tool: 'db.query', principal, resourceId: 'orders', callId: `c-${run}` }) as unknown as ToolCall;

const stateNamed = (name: string) => ({ keyId: name }) as unknown as FailureState;

/** A read-through that counts reads and answers what `answer` holds now, optionally after `gate` resolves. */
function store() {
  const s = {
    reads: 0,
    answer: [stateNamed('v1')] as FailureState[],
    gate: null as Promise<void> | null,
    read: async (_tenant: string, _call: ToolCall): Promise<FailureState[]> => {
      s.reads += 1;
      const answer = s.answer;
      if (s.gate !== null) await s.gate;
      return answer;
    },
  };
  return s;
}

/** A started cache over a fresh store: the notifications are being received. */
function liveCache(capacity = 100) {
  const db = store();
  const cache = new CandidateCache(db.read, capacity);
  cache.start();
  return { db, cache };
}

/** Holds the store's reads until the returned function is called. */
function holdReads(db: ReturnType<typeof store>): () => void {
  let open!: () => void;
  db.gate = new Promise((resolve) => (open = resolve));
  return () => {
    open();
    db.gate = null;
  };
}

describe('CandidateCache', () => {
  it('given notifications are not received yet, when preflights ask, then every one reads through', async () => {
    const db = store();
    const cache = new CandidateCache(db.read, 100);
    await cache.candidates('acme', call('r1'));
    await cache.candidates('acme', call('r1'));
    expect(db.reads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('given a live cache, when the same selection is asked again, then it is answered from memory', async () => {
    const { db, cache } = liveCache();
    expect(await cache.candidates('acme', call('r1'))).toEqual([stateNamed('v1')]);
    db.answer = [stateNamed('v2')];
    expect(await cache.candidates('acme', call('r1'))).toEqual([stateNamed('v1')]);
    expect(db.reads).toBe(1);
  });

  it("when the run's coordinates change, then the next preflight reads the new states", async () => {
    const { db, cache } = liveCache();
    await cache.candidates('acme', call('r1'));
    await cache.candidates('acme', call('r2'));
    db.answer = [stateNamed('v2')];
    cache.changed([stateCoordinateHash('run', 'acme', 'r1')]);
    expect(await cache.candidates('acme', call('r1'))).toEqual([stateNamed('v2')]);
    // Another run of the tenant is not touched.
    expect(await cache.candidates('acme', call('r2'))).toEqual([stateNamed('v1')]);
    expect(db.reads).toBe(3);
  });

  it("when the principal's fleet coordinates change, then every run's selection naming it is dropped", async () => {
    const { cache } = liveCache();
    await cache.candidates('acme', call('r1', 'svc-1'));
    await cache.candidates('acme', call('r2', 'svc-1'));
    await cache.candidates('acme', call('r3', 'svc-2'));
    cache.changed([stateCoordinateHash('principal', 'acme', 'svc-1')]);
    expect(cache.size).toBe(1);
    // The same names in another tenant are other coordinates.
    cache.changed([stateCoordinateHash('run', 'globex', 'r3')]);
    expect(cache.size).toBe(1);
  });

  it('given a change announced while a read is in flight, then that read is answered but not kept', async () => {
    const { db, cache } = liveCache();
    const release = holdReads(db);
    const inFlight = cache.candidates('acme', call('r1'));
    cache.changed([stateCoordinateHash('run', 'acme', 'r1')]);
    release();
    await inFlight;
    db.answer = [stateNamed('v2')];
    expect(await cache.candidates('acme', call('r1'))).toEqual([stateNamed('v2')]);
  });

  it('given the notifications stopped while a read was in flight, then nothing is kept and later reads go through', async () => {
    const { db, cache } = liveCache();
    await cache.candidates('acme', call('r1'));
    const release = holdReads(db);
    const inFlight = cache.candidates('acme', call('r9'));
    cache.stop();
    release();
    await inFlight;
    expect(cache.size).toBe(0);
    await cache.candidates('acme', call('r1'));
    expect(db.reads).toBe(3);
  });

  it('given a full cache, when another selection is kept, then the least recently used one goes', async () => {
    const { db, cache } = liveCache(2);
    await cache.candidates('acme', call('r1'));
    await cache.candidates('acme', call('r2'));
    await cache.candidates('acme', call('r1')); // r1 is now the most recent
    await cache.candidates('acme', call('r3'));
    expect(cache.size).toBe(2);
    const before = db.reads;
    await cache.candidates('acme', call('r1'));
    expect(db.reads).toBe(before);
    await cache.candidates('acme', call('r2'));
    expect(db.reads).toBe(before + 1);
  });

  it('given more changes during a read than the log holds, then the read is not kept', async () => {
    const { db, cache } = liveCache();
    const release = holdReads(db);
    const inFlight = cache.candidates('acme', call('r1'));
    cache.changed(Array.from({ length: 5_000 }, (_, i) => `h${i}`));
    release();
    await inFlight;
    expect(cache.size).toBe(0);
  });
});
