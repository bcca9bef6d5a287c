import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionDenied, toolCall } from '@tokencircuit/contracts/testing';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { ApiHarness } from './support/api-harness.js';
import { seedFromEvents } from './support/seed.js';

/** The server-sent events of one GET /v1/preflight/changes, read as they come. */
class FeedReader {
  private buffer = '';
  private constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static async open(api: ApiHarness, query: string): Promise<FeedReader> {
    const response = await api.as('acme', `/v1/preflight/changes?${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return new FeedReader(response.body!.getReader());
  }

  /** The next named event and its data; null once the stream ended. */
  async next(): Promise<{ event: string; data: unknown } | null> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined) return { event, data: data === undefined ? null : JSON.parse(data) };
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += new TextDecoder().decode(value);
    }
  }

  /** The next event that is not `ready` (the stream's own greeting). */
  async nextOwn(): Promise<{ event: string; data: unknown } | null> {
    for (;;) {
      const next = await this.next();
      if (next === null || next.event !== 'ready') return next;
    }
  }
}

/**
 * GET /v1/preflight/changes on the real API and Postgres: the coordinates a feed watches are the ones preflight's
 * `reuse` names, a committed failure_state change there is relayed as `changed`, and shutting the API down ends
 * every open feed with `lost` instead of holding the server open.
 */
describe('the preflight change feed (real API, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => {
    await api?.close().catch(() => undefined);
  });

  const call = toolCall({ agent: 'feed-a', run: 'run-feed-1', principal: 'svc-feed', resourceId: 'finance.q3' });

  it('watches the coordinates preflight names in reuse, and relays a change of the principal’s state', async () => {
    const answer = (await (await api.as('acme', '/v1/preflight', { body: { call } })).json()) as {
      allow: boolean;
      reuse: { coordinates: string[] } | null;
    };
    expect(answer.allow).toBe(true);
    const feed = await FeedReader.open(api, 'run=run-feed-1&principal=svc-feed');
    const watching = await feed.nextOwn();
    expect(watching).toEqual({ event: 'watching', data: { coordinates: answer.reuse!.coordinates } });
    // Another agent of the tenant, another run, the same principal: its permission failure blocks it fleet-wide.
    const other = { ...call, run: 'run-feed-2', agent: 'feed-b' };
    await seedFromEvents(api.database.pool, [permissionDenied('acme', other)], DEFAULT_CONFIG);
    expect(await feed.nextOwn()).toEqual({ event: 'changed', data: {} });
  });

  it('refuses a feed without a run, and one without a key', async () => {
    expect((await api.as('acme', '/v1/preflight/changes?principal=svc-feed')).status).toBe(400);
    expect((await api.request('/v1/preflight/changes?run=r')).status).toBe(401);
  });

  it('ends every open feed with lost when the API shuts down, so the shutdown does not wait on them', async () => {
    const feed = await FeedReader.open(api, 'run=run-feed-3');
    expect((await feed.nextOwn())?.event).toBe('watching');
    const closing = api.app.close();
    expect(await feed.nextOwn()).toEqual({ event: 'lost', data: {} });
    expect(await feed.nextOwn()).toBeNull();
    await closing;
  });
});
