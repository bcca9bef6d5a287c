import { describe, expect, it } from 'vitest';
import type { ToolCall } from '@tokencircuit/contracts';
import type { PreflightAnswer } from '@tokencircuit/sdk';
import { AllowCache, emptyAllowCacheCounts, KEEP_AFTER_CHANGE_MS } from './allow-cache.js';

const call = (tool: string, resourceId: string | null = 'r-1'): ToolCall =>
  ({ run: 'run-1', tool, principal: 'svc', resourceId, callId: `c-${Math.random()}` }) as unknown as ToolCall;

const reusable = (coordinates = ['h-run', 'h-principal'], maxAgeMs = 5_000): PreflightAnswer => ({
  allow: true,
  reason: 'no failure state at these coordinates',
  decision: null,
  artifact: null,
  budget: null,
  advice: null,
  reuse: { maxAgeMs, coordinates },
});

/** A cache on a clock the spec moves, its counts, and how often it asked for its feed. */
function cacheAt(start = 100_000) {
  const clock = { now: start };
  const counts = emptyAllowCacheCounts();
  const asked = { feed: 0 };
  const cache = new AllowCache(counts, () => (asked.feed += 1), () => clock.now);
  /** The feed goes live, and the window after an announcement passes. */
  const live = (coordinates = ['h-run', 'h-principal']) => {
    cache.live(coordinates);
    clock.now += KEEP_AFTER_CHANGE_MS;
  };
  const ask = (c: ToolCall, answer: PreflightAnswer) => cache.keep(cache.begin(), c, answer);
  return { clock, counts, asked, cache, live, ask };
}

describe('AllowCache', () => {
  it('given no live feed, when a reusable answer comes, then the feed is asked for and nothing is kept', () => {
    const { cache, asked, ask } = cacheAt();
    ask(call('read'), reusable());
    expect(asked.feed).toBe(1);
    expect(cache.lookup(call('read'))).toBeNull();
  });

  it('given a live feed, when a reusable answer comes, then the next call of the selection is answered from it', () => {
    const { cache, counts, live, ask } = cacheAt();
    live();
    ask(call('read'), reusable());
    expect(cache.lookup(call('read'))?.allow).toBe(true);
    expect(cache.lookup(call('read', 'r-2'))).toBeNull();
    expect(cache.lookup(call('other'))).toBeNull();
    expect(counts).toMatchObject({ served: 1, kept: 1, feedsLive: 1 });
  });

  it('given answers that are not reusable (a denial, no reuse), when they come, then none is kept', () => {
    const { cache, live, ask } = cacheAt();
    live();
    ask(call('read'), { ...reusable(), allow: false });
    ask(call('other'), { ...reusable(), reuse: null });
    expect(cache.lookup(call('read'))).toBeNull();
    expect(cache.lookup(call('other'))).toBeNull();
  });

  it('given a kept answer, when the feed says changed, then it is dropped and the next call asks', () => {
    const { cache, counts, live, ask } = cacheAt();
    live();
    ask(call('read'), reusable());
    cache.changed();
    expect(cache.lookup(call('read'))).toBeNull();
    expect(counts.changed).toBe(1);
  });

  it('given a question in flight, when a change is announced before its answer, then the answer is not kept', () => {
    const { cache, clock, live } = cacheAt();
    live();
    const since = cache.begin();
    cache.changed();
    clock.now += KEEP_AFTER_CHANGE_MS;
    cache.keep(since, call('read'), reusable());
    expect(cache.lookup(call('read'))).toBeNull();
  });

  it('given a change announced just before the question, when its answer comes, then it is not kept (another replica may lag)', () => {
    const { cache, clock, live, ask } = cacheAt();
    live();
    cache.changed();
    clock.now += KEEP_AFTER_CHANGE_MS - 1;
    ask(call('read'), reusable());
    expect(cache.lookup(call('read'))).toBeNull();
    clock.now += 1;
    ask(call('read'), reusable());
    expect(cache.lookup(call('read'))).not.toBeNull();
  });

  it('given an answer read at coordinates the feed does not watch, when it comes, then it is not kept', () => {
    const { cache, live, ask } = cacheAt();
    live(['h-run']);
    ask(call('read'), reusable(['h-run', 'h-principal']));
    expect(cache.lookup(call('read'))).toBeNull();
  });

  it('given a kept answer, when its maxAgeMs passes, then the call asks again', () => {
    const { cache, clock, live, ask } = cacheAt();
    live();
    ask(call('read'), reusable(undefined, 1_000));
    clock.now += 999;
    expect(cache.lookup(call('read'))).not.toBeNull();
    clock.now += 1;
    expect(cache.lookup(call('read'))).toBeNull();
  });

  it('given a kept answer, when the feed is lost, then nothing is answered from memory until it is live again', () => {
    const { cache, counts, live, ask } = cacheAt();
    live();
    ask(call('read'), reusable());
    cache.lost();
    expect(cache.lookup(call('read'))).toBeNull();
    ask(call('read'), reusable());
    expect(cache.lookup(call('read'))).toBeNull();
    expect(counts).toMatchObject({ feedsLive: 0, lost: 1 });
  });
});
