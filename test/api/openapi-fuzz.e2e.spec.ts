import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiHarness, KEYS } from './support/api-harness.js';
import { operationRequests, staticRequests, type FuzzRequest } from './support/openapi-requests.js';

// Bounded so the int tier stays short: RUNS per operation (13 operations) plus STATIC_RUNS static paths.
// A failure prints its seed; FUZZ_SEED=<seed> replays the same requests, FUZZ_RUNS widens a local hunt.
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const STATIC_RUNS = Number(process.env.FUZZ_STATIC_RUNS ?? 60);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
const credentials = { tenant: 'acme', validKey: KEYS.acme, otherKey: KEYS.globex };

interface Finding {
  readonly request: string;
  readonly problem: string;
}

/** What one answer breaks of "every request succeeds or gets a 4xx JSON error", or null. */
async function judge(api: ApiHarness, request: FuzzRequest, statuses: Map<number, number>): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(`${api.baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(90_000),
    });
  } catch (error) {
    return `no answer: ${(error as Error).message} ${String((error as Error).cause ?? '')}`;
  }
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return response.status === 200 ? null : `event stream with status ${response.status}`;
  }
  const text = await response.text();
  if (response.status >= 500) return `${response.status} ${text.slice(0, 300)}`;
  if (response.status < 400 || request.method === 'HEAD') return null;
  if (!type.startsWith('application/json'))
    return `${response.status} with content-type "${type}": ${text.slice(0, 200)}`;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error !== 'string' || typeof body.message !== 'string')
      return `${response.status} body ${text.slice(0, 200)}`;
  } catch {
    return `${response.status} body is not JSON: ${text.slice(0, 200)}`;
  }
  return null;
}

const describeRequest = (request: FuzzRequest): string =>
  `${request.method} ${request.path.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 200)}` +
  (request.body === undefined ? '' : ` body(${request.body.length})=${request.body.slice(0, 300)}`);

describe('requests generated from docs/openapi.json never get a 5xx (real Kafka, real Postgres)', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(async () => api?.close());

  it(`every operation and static path answers 2xx/3xx or a 4xx JSON error (seed ${SEED})`, async () => {
    console.info(`openapi fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${RUNS} requests per operation`);
    const requests: FuzzRequest[] = [];
    for (const [i, { requests: arbitrary }] of operationRequests(document, credentials).entries()) {
      requests.push(...fc.sample(arbitrary, { numRuns: RUNS, seed: SEED + i }));
    }
    requests.push(...fc.sample(staticRequests(credentials), { numRuns: STATIC_RUNS, seed: SEED }));
    const operations = new Set(requests.map((r) => r.operation));
    // Every operation of the document is exercised (plus the static paths).
    expect(operations.size).toBe(Object.values(document.paths).flatMap((p) => Object.keys(p as object)).length + 1);

    const findings: Finding[] = [];
    const statuses = new Map<number, number>();
    for (const request of requests) {
      const problem = await judge(api, request, statuses);
      if (problem !== null) findings.push({ request: describeRequest(request), problem });
    }
    console.info(`openapi fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    expect(findings, `seed ${SEED}: ${findings.length} of ${requests.length} requests`).toEqual([]);

    // The server is alive and still serves a valid request.
    expect((await api.request('/health/live')).status).toBe(200);
    const preflight = await api.as('acme', '/v1/preflight', {
      body: {
        call: { agent: 'a', run: 'r', callId: 'c', attempt: 1, intentId: 'i', tool: 'refund', effect: 'write' },
      },
    });
    expect(preflight.status, await preflight.clone().text()).toBe(200);
  });
});
