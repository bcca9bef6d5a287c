import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { requested, toolCall } from '@tokencircuit/contracts/testing';
import { EventQueue } from './event-queue.js';

/**
 * How the queue batches: a loopback HTTP server stands in for POST /v1/events (it answers as the API does, with the
 * accepted ids) and records each request's events; a request can be held open to play a POST in flight. The
 * queue's order and loss guarantees over the real API are test/sdk/event-queue.e2e.spec.ts.
 */
describe('EventQueue batching', () => {
  let server: Server;
  let url: string;
  let posts: string[][];
  let holdNext: Promise<void> | null;
  let release: () => void;

  const event = (n: number): AgentEvent =>
    parseAgentEvent(requested('acme', toolCall({ agent: 'a', run: 'r', tool: `t.${n}` }), '2026-01-05T10:00:00.000Z'));
  const names = (events: AgentEvent[]) =>
    events.map((e) => (e.type === 'tool_call.requested' ? e.data.call.tool : e.type));

  beforeEach(async () => {
    posts = [];
    holdNext = null;
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { events } = JSON.parse(body) as { events: AgentEvent[] };
        posts.push(names(events));
        const answer = () => {
          response.writeHead(202, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ accepted: events.map((e) => e.id) }));
        };
        const held = holdNext;
        holdNext = null;
        if (held === null) answer();
        else void held.then(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const holdTheNextPost = () => {
    holdNext = new Promise<void>((resolve) => (release = resolve));
  };

  it('lets background events that gathered during a POST wait for company, instead of sending them alone', async () => {
    const queue = new EventQueue(100, () => undefined, { lingerMs: 1_000 });
    const endpoint = { url, apiKey: 'k' };
    holdTheNextPost();
    const first = queue.publish(event(1), endpoint); // waited for: leaves at once
    await expect.poll(() => posts.length).toBe(1);
    queue.enqueue(event(2), endpoint);
    queue.enqueue(event(3), endpoint);
    release();
    await first;
    queue.enqueue(event(4), endpoint);
    expect(posts).toEqual([['t.1']]);
    await expect(queue.flush()).resolves.toBe(true);
    expect(posts).toEqual([['t.1'], ['t.2', 't.3', 't.4']]);
    queue.close();
  });

  it('sends lingering events at once with an event that is waited for, in order', async () => {
    const queue = new EventQueue(100, () => undefined, { lingerMs: 1_000 });
    const endpoint = { url, apiKey: 'k' };
    queue.enqueue(event(1), endpoint);
    queue.enqueue(event(2), endpoint);
    await queue.publish(event(3), endpoint);
    expect(posts).toEqual([['t.1', 't.2', 't.3']]);
    expect(queue.health()).toMatchObject({ pending: 0, published: 3 });
    queue.close();
  });

  it('follows a POST at once with what gathered meanwhile when one of those is waited for', async () => {
    const queue = new EventQueue(100, () => undefined, { lingerMs: 1_000 });
    const endpoint = { url, apiKey: 'k' };
    holdTheNextPost();
    const first = queue.publish(event(1), endpoint);
    await expect.poll(() => posts.length).toBe(1);
    queue.enqueue(event(2), endpoint);
    const third = queue.publish(event(3), endpoint);
    release();
    await Promise.all([first, third]);
    expect(posts).toEqual([['t.1'], ['t.2', 't.3']]);
    queue.close();
  });

  it('sends a full batch without lingering, so a backlog drains without pauses', async () => {
    const queue = new EventQueue(1_000, () => undefined, { lingerMs: 1_000 });
    const endpoint = { url, apiKey: 'k' };
    holdTheNextPost();
    for (let n = 1; n <= 100; n++) queue.enqueue(event(n), endpoint);
    await expect.poll(() => posts.length, { timeout: 500 }).toBe(1);
    for (let n = 101; n <= 250; n++) queue.enqueue(event(n), endpoint);
    release();
    await expect.poll(() => posts.length, { timeout: 500 }).toBe(2);
    expect(posts.map((p) => p.length)).toEqual([100, 100]);
    await expect(queue.flush()).resolves.toBe(true);
    expect(posts.map((p) => p.length)).toEqual([100, 100, 50]);
    expect(posts.flat()).toEqual(Array.from({ length: 250 }, (_, i) => `t.${i + 1}`));
    queue.close();
  });

  it('with no linger, sends what gathered during a POST as soon as it returns', async () => {
    const queue = new EventQueue(100, () => undefined, { lingerMs: 0 });
    const endpoint = { url, apiKey: 'k' };
    holdTheNextPost();
    queue.enqueue(event(1), endpoint);
    await expect.poll(() => posts.length).toBe(1);
    queue.enqueue(event(2), endpoint);
    queue.enqueue(event(3), endpoint);
    release();
    await expect.poll(() => posts.length).toBe(2);
    expect(posts).toEqual([['t.1'], ['t.2', 't.3']]);
    queue.close();
  });
});
