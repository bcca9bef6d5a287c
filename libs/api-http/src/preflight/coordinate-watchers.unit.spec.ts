import { describe, expect, it } from 'vitest';
import type { ToolCall } from '@tokencircuit/contracts';
import { CandidateCache, preflightCoordinates } from './candidate-cache.js';
import { CoordinateWatchers } from './coordinate-watchers.js';

/** A watcher that writes down what it was told. */
function told() {
  const heard: string[] = [];
  return { heard, changed: () => heard.push('changed'), lost: () => heard.push('lost') };
}

describe('CoordinateWatchers', () => {
  it('given a watcher of two hashes, when one statement changes both, then it is told once', () => {
    const watchers = new CoordinateWatchers();
    const w = told();
    watchers.watch(['r1', 'p1'], w.changed, w.lost);
    watchers.changed(['p1', 'r1', 'x']);
    expect(w.heard).toEqual(['changed']);
  });

  it('given two watchers, when a hash only one watches changes, then only that one is told', () => {
    const watchers = new CoordinateWatchers();
    const a = told();
    const b = told();
    watchers.watch(['r1'], a.changed, a.lost);
    watchers.watch(['r2'], b.changed, b.lost);
    watchers.changed(['r2']);
    expect([a.heard, b.heard]).toEqual([[], ['changed']]);
  });

  it('given a watcher that unsubscribed, when its hash changes, then it is not told and is not counted', () => {
    const watchers = new CoordinateWatchers();
    const w = told();
    const stop = watchers.watch(['r1'], w.changed, w.lost);
    stop();
    watchers.changed(['r1']);
    watchers.lost();
    expect(w.heard).toEqual([]);
    expect(watchers.size).toBe(0);
  });

  it('given watchers, when the notifications stop, then each is told lost once and then forgotten', () => {
    const watchers = new CoordinateWatchers();
    const a = told();
    const b = told();
    watchers.watch(['r1'], a.changed, a.lost);
    watchers.watch(['r1', 'p1'], b.changed, b.lost);
    watchers.lost();
    watchers.changed(['r1']);
    expect([a.heard, b.heard]).toEqual([['lost'], ['lost']]);
    expect(watchers.size).toBe(0);
  });
});

describe('CandidateCache as a change feed', () => {
  const cache = () => new CandidateCache(async (_tenant: string, _call: ToolCall) => [], 10);

  it('given notifications are not received, when a feed asks to watch, then it is refused', () => {
    expect(cache().watch(preflightCoordinates('acme', 'r1', 'svc'), () => {}, () => {})).toBeNull();
  });

  it('given a live cache, when a notification names a watched run, then the feed is told; when it stops, lost', () => {
    const c = cache();
    c.start();
    const w = told();
    expect(c.watch(preflightCoordinates('acme', 'r1', 'svc'), w.changed, w.lost)).not.toBeNull();
    c.changed(preflightCoordinates('acme', 'r2', null));
    c.changed(preflightCoordinates('acme', 'r1', null));
    c.changed(preflightCoordinates('globex', 'other', 'svc').slice(1));
    c.changed(preflightCoordinates('acme', 'other', 'svc').slice(1));
    c.stop();
    expect(w.heard).toEqual(['changed', 'changed', 'lost']);
    expect(c.watching).toBe(0);
  });
});
