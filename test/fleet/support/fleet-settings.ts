import { expect } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';

/**
 * Settings far from their defaults, read from the same variables in both modes: a projector transaction per
 * record, a preflight quota a tenant spends at once, and values only the modules' configuration shows.
 */
export const CHANGED_SETTINGS: Record<string, string> = {
  PROJECTOR_CHUNK_SIZE: '1',
  PROJECTOR_STUCK_READINESS_SECONDS: '7',
  PROJECTOR_WATCH_INTERVAL_MS: '250',
  PROJECTOR_REBASE_ON_TOPIC_RESET: 'true',
  PROJECTOR_EXIT_ON_FATAL: 'false',
  DECISION_BATCH_SIZE: '7',
  API_PREFLIGHT_PER_SECOND: '1',
  API_PREFLIGHT_BURST: '2',
};

/** Six calls denied (twelve events) in one request: together, they would share projector transactions. */
async function postDenials(url: string, apiKey: string, tenant: string): Promise<number> {
  const events = Array.from({ length: 6 }, (_, i) => toolCall({ run: `run-settings-${i}` })).flatMap((call) => [
    requested(tenant, call),
    permissionDenied(tenant, call),
  ]);
  const response = await fetch(`${url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(response.status).toBe(202);
  return events.length;
}

/** The projector's transactions so far: how many, and how many held a single record. */
function projectorTransactions(metrics: string): { count: number; single: number } {
  const value = (pattern: RegExp) => Number(pattern.exec(metrics)?.[1] ?? 0);
  return {
    count: value(/^tokencircuit_projector_batch_size_count(?:\{[^}]*\})? (\d+)/m),
    single: value(/^tokencircuit_projector_batch_size_bucket\{[^}]*le="1"[^}]*\} (\d+)/m),
  };
}

/** Preflights until the first 429 (at most 30: with a burst of 2 at 1/s, never all granted). */
async function firstRefusal(url: string, apiKey: string): Promise<Response | undefined> {
  for (let i = 0; i < 30; i++) {
    const response = await fetch(`${url}/v1/preflight`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call: toolCall({ run: 'run-settings-quota' }) }),
    });
    if (response.status === 429) return response;
    expect(response.status).toBe(200);
  }
  return undefined;
}

/**
 * What CHANGED_SETTINGS make a fleet do, whatever its mode: every projector transaction holds one record (the
 * wait counts transactions up to the events posted, which batched transactions never reach), and the API refuses
 * the tenant's third preflight or so. `metricsUrl` serves the projector's metrics.
 */
export async function expectChangedBehaviour(apiUrl: string, apiKey: string, metricsUrl: string): Promise<void> {
  const events = await postDenials(apiUrl, apiKey, 'acme');
  const transactions = await waitFor(
    async () => {
      const seen = projectorTransactions(await (await fetch(metricsUrl)).text());
      return seen.count >= events ? seen : undefined;
    },
    { maxWait: 120_000, name: `projector transactions for the ${events} events` },
  );
  expect(transactions.single).toBe(transactions.count);

  const refused = await firstRefusal(apiUrl, apiKey);
  expect(refused, 'a 429 within 30 preflights').toBeDefined();
  expect(await refused!.json()).toMatchObject({ error: 'rate_limited', quota: 'preflight' });
}
