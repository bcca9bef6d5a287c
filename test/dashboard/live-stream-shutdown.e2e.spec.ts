import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHarness, KEYS } from '../api/support/api-harness.js';

/**
 * Shutting the API down while dashboards follow GET /v1/dashboard/live: every open stream is ended by the server,
 * so the shutdown completes instead of waiting for the browsers to hang up (it waited forever: a rolling deploy
 * hung until the orchestrator killed the process). Real API, real Postgres.
 */
describe('the dashboard live stream on shutdown (real API, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => {
    await api?.close().catch(() => undefined);
  });

  /** Reads a stream to its end; the text it carried. */
  async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
    const text: string[] = [];
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return text.join('');
      text.push(new TextDecoder().decode(chunk.value));
    }
  }

  it('ends the streams of API-key holders and of signed-in sessions, and the shutdown completes', async () => {
    const signedIn = await api.request('/dashboard/session', {
      body: { apiKey: KEYS.acme },
      headers: { origin: api.baseUrl },
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const bySession = await api.request('/v1/dashboard/live', { headers: { cookie } });
    const byKey = await api.as('globex', '/v1/dashboard/live');
    const readers = [bySession, byKey].map((stream) => {
      expect(stream.status).toBe(200);
      return stream.body!.getReader();
    });
    for (const reader of readers) expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:');

    const closing = api.app.close();
    const ended = await Promise.all(readers.map(drain));
    for (const text of ended) expect(text).not.toContain('event: change');
    await closing;
  });
});
