import { describe, expect, it } from 'vitest';
import { GroupCommit, type GroupCommitLimits } from './group-commit.js';

/** A run that records what it was given and stays pending until released. */
function recordingRun() {
  const runs: number[][] = [];
  const releases: ((fail?: Error) => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (items: readonly number[]) => {
    const index = runs.push([...items]) - 1;
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    return new Promise<string>((resolve, reject) => {
      releases[index] = (fail) => {
        running -= 1;
        if (fail) reject(fail);
        else resolve(`run ${index}: ${items.join(',')}`);
      };
    });
  };
  return { runs, releases, run, mostAtOnce: () => mostAtOnce };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Items weigh their own value. */
const limits = (maxInFlight: number, capacity = 1_000): GroupCommitLimits<number> => ({
  maxInFlight,
  capacity,
  weigh: (n) => n,
});

describe('GroupCommit', () => {
  it('given items added in the same tick, when the run settles, then they share one run and its outcome', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run, limits(2));
    const outcomes = [group.add(1), group.add(2), group.add(3)];
    await turn();
    expect(rec.runs).toEqual([[1, 2, 3]]);
    rec.releases[0]!();
    expect(await Promise.all(outcomes)).toEqual(['run 0: 1,2,3', 'run 0: 1,2,3', 'run 0: 1,2,3']);
  });

  it('given every slot busy, when items arrive, then they wait, gather, and run together once a slot frees', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run, limits(1));
    const first = group.add(1);
    await turn();
    const later = [group.add(2), group.add(3)];
    await turn();
    const latest = group.add(4);
    await turn();
    expect(rec.runs).toEqual([[1]]);
    rec.releases[0]!();
    await first;
    await turn();
    expect(rec.runs).toEqual([[1], [2, 3, 4]]);
    rec.releases[1]!();
    expect(await Promise.all([...later, latest])).toEqual(['run 1: 2,3,4', 'run 1: 2,3,4', 'run 1: 2,3,4']);
    expect(rec.mostAtOnce()).toBe(1);
  });

  it('given a free slot, when a run is in flight, then the next group runs beside it, never more than the limit', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run, limits(2));
    void group.add(1);
    await turn();
    void group.add(2);
    await turn();
    void group.add(3);
    await turn();
    expect(rec.runs).toEqual([[1], [2]]);
    rec.releases[1]!();
    await turn();
    expect(rec.runs).toEqual([[1], [2], [3]]);
    expect(rec.mostAtOnce()).toBe(2);
    rec.releases[0]!();
    rec.releases[2]!();
  });

  it('given a group at capacity, then the next item opens another group, run in order when slots allow', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run, limits(2, 10));
    const outcomes = [group.add(6), group.add(4), group.add(5), group.add(20)];
    await turn();
    // 6 + 4 fill the first; 5 + 20 would pass 10, so 20 goes alone (a lone item may exceed the capacity).
    expect(rec.runs).toEqual([[6, 4], [5]]);
    rec.releases[0]!();
    await turn();
    expect(rec.runs).toEqual([[6, 4], [5], [20]]);
    rec.releases[1]!();
    rec.releases[2]!();
    expect(await Promise.all(outcomes)).toEqual(['run 0: 6,4', 'run 0: 6,4', 'run 1: 5', 'run 2: 20']);
  });

  it('given a run that fails, then every item of it is rejected with that error and the next run still happens', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run, limits(1));
    const failing = [group.add(1), group.add(2)];
    await turn();
    const next = group.add(3);
    rec.releases[0]!(new Error('connection terminated'));
    for (const outcome of failing) await expect(outcome).rejects.toThrow('connection terminated');
    await turn();
    expect(rec.runs).toEqual([[1, 2], [3]]);
    rec.releases[1]!();
    expect(await next).toBe('run 1: 3');
  });

  it('given a run that throws synchronously, then its items are rejected, not left pending', async () => {
    const group = new GroupCommit<number, string>(() => {
      throw new TypeError('bug');
    }, limits(1));
    await expect(group.add(1)).rejects.toThrow('bug');
  });
});
