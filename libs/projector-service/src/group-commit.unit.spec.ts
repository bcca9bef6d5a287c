import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A run that records what it was given and stays pending until released. */
function recordingRun() {
  const runs: number[][] = [];
  const releases: ((fail?: Error) => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (items: readonly number[]) => {
    runs.push([...items]);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    return new Promise<string>((resolve, reject) => {
      releases.push((fail) => {
        running -= 1;
        if (fail) reject(fail);
        else resolve(`run ${runs.length - 1}: ${items.join(',')}`);
      });
    });
  };
  return { runs, releases, run, mostAtOnce: () => mostAtOnce };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('given items added in the same tick, when the run settles, then they share one run and its outcome', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run);
    const outcomes = [group.add(1), group.add(2), group.add(3)];
    await turn();
    expect(rec.runs).toEqual([[1, 2, 3]]);
    rec.releases[0]!();
    expect(await Promise.all(outcomes)).toEqual(['run 0: 1,2,3', 'run 0: 1,2,3', 'run 0: 1,2,3']);
  });

  it('given a run in flight, when items arrive, then they wait for it and run together after it', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run);
    const first = group.add(1);
    await turn();
    const later = [group.add(2), group.add(3)];
    await turn();
    await turn();
    expect(rec.runs).toEqual([[1]]);
    rec.releases[0]!();
    await first;
    await turn();
    expect(rec.runs).toEqual([[1], [2, 3]]);
    rec.releases[1]!();
    expect(await Promise.all(later)).toEqual(['run 1: 2,3', 'run 1: 2,3']);
    expect(rec.mostAtOnce()).toBe(1);
  });

  it('given a run that fails, then every item of it is rejected with that error and the next run still happens', async () => {
    const rec = recordingRun();
    const group = new GroupCommit(rec.run);
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
    });
    await expect(group.add(1)).rejects.toThrow('bug');
  });
});
