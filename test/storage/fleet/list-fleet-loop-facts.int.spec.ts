import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { DEFAULT_FLEET, fleetLoops } from '@tokencircuit/governance';
import { insertFailureState, readAs } from '../../../libs/storage/src/spec-support/read-fixtures.js';
import { listFleetLoopFacts } from '../../../libs/storage/src/fleet/list-fleet-loop-facts.js';

const track = (level: string | null, digests: string[], cycle: string[] | null = null) => ({
  progress: {
    entries: digests.map((d, i) => ({ callId: `c${i}`, callDigest: d, resultDigest: 'r' })),
    level,
    cycle,
  },
});

describe('listFleetLoopFacts', () => {
  let db: TestDatabase;
  const at = (hour: number) => new Date(Date.UTC(2026, 11, 4, hour, 0));
  const facts = (tenant: string, since: Date) => readAs(db.pool, tenant, (s) => listFleetLoopFacts(s, since));

  beforeAll(async () => {
    db = await createTestDatabase('tc_list_fleet_loop_facts');
    const loop = (tenant: string, keyId: string, run: string, hour: number, state: object, status = 'exhausted') =>
      insertFailureState(db.pool, {
        tenant,
        keyId,
        run,
        toolName: 'search',
        errorClass: 'no_progress',
        status,
        updatedAt: at(hour),
        state: { keyId, ...state } as never,
      });
    await loop('tenant-a', 'k1', 'run-1', 5, track('block', ['d-x', 'd-q3', 'd-q3']));
    await loop('tenant-a', 'k2', 'run-2', 6, track('advise', ['d-q3', 'd-q3']), 'open');
    await loop('tenant-a', 'k3', 'run-3', 7, track('block', ['a', 'b', 'a', 'b'], ['a', 'b']));
    // A run that changed approach: its key resolved, no loop now.
    await loop('tenant-a', 'k4', 'run-4', 8, track(null, ['d-q3']), 'resolved');
    // Too old for the window asked below.
    await loop('tenant-a', 'k5', 'run-5', 1, track('block', ['d-q3']));
    await loop('tenant-b', 'kb', 'run-b', 8, track('block', ['d-q3']));
    // A failure key of another class is not a loop.
    await insertFailureState(db.pool, {
      tenant: 'tenant-a',
      keyId: 'k6',
      run: 'run-6',
      toolName: 'search',
      updatedAt: at(8),
    });
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('reads each looping run key of the tenant since the time asked: the looping call, or the cycle', async () => {
    const rows = await facts('tenant-a', at(4));
    expect(rows.sort((a, b) => a.run.localeCompare(b.run))).toEqual([
      { run: 'run-1', tool: 'search', callDigests: ['d-q3'], level: 'block', at: at(5).toISOString() },
      { run: 'run-2', tool: 'search', callDigests: ['d-q3'], level: 'advise', at: at(6).toISOString() },
      { run: 'run-3', tool: 'search', callDigests: ['a', 'b'], level: 'block', at: at(7).toISOString() },
    ]);
    expect(fleetLoops(rows, { runs: 2, windowHours: 24 }, at(9).getTime())).toMatchObject([
      { tool: 'search', callDigest: 'd-q3', runs: 2, firstSeen: at(5).toISOString(), level: 'block' },
    ]);
  });

  it('sees only its own tenant', async () => {
    await expect(facts('tenant-b', at(0))).resolves.toEqual([
      { run: 'run-b', tool: 'search', callDigests: ['d-q3'], level: 'block', at: at(8).toISOString() },
    ]);
    expect(fleetLoops(await facts('tenant-c', at(0)), DEFAULT_FLEET, at(9).getTime())).toEqual([]);
  });
});
