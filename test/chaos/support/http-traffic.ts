import type { AgentEvent, AgentEventInput } from '@tokencircuit/contracts';
import { KEYS, type ApiHarness, type Tenant } from '../../api/support/api-harness.js';
import { edgeEvents, hostileHttpRequests, type HostileHttpRequest } from '../../support/hostile-http-requests.js';

/** Events per valid POST /v1/events request. */
const BATCH = 40;

/** What the HTTP leg sends: valid batches, edge events (just inside limits) and hostile requests, interleaved. */
export interface HttpPlan {
  /** Every event the API must accept (202) and the projector apply once: the valid batches and the edge events. */
  readonly valid: readonly AgentEventInput[];
  readonly hostile: readonly HostileHttpRequest[];
  readonly send: () => Promise<HttpOutcome>;
}

export interface HttpOutcome {
  /** Requests answered as expected: 202 for valid ones, one 4xx JSON error for each hostile one. */
  readonly accepted: number;
  readonly refused: number;
  /** Everything else, described (must stay empty). */
  readonly unexpected: string[];
  /** Hostile requests by status, for the figures. */
  readonly refusedByStatus: Map<number, number>;
}

/**
 * The chaos run's HTTP leg: `trace` (generated for tenant-1…3) re-homed to the API's tenants, posted in
 * batches with every hostile request of test/support/hostile-http-requests.ts and the edge events between
 * them, against the API app serving the chaos run's topic and database.
 */
export function httpPlan(api: ApiHarness, trace: readonly AgentEvent[]): HttpPlan {
  const tenants = Object.keys(KEYS) as Tenant[];
  const rehomed = trace.map((event) => {
    const tenant = tenants[Number(/\d+$/.exec(event.tenant)?.[0] ?? 0) % tenants.length]!;
    return { ...event, tenant, id: `http:${event.id}` } as AgentEventInput;
  });
  const edges = edgeEvents('acme').map((edge) => edge.event);
  const hostile = hostileHttpRequests('acme');

  const send = async (): Promise<HttpOutcome> => {
    let accepted = 0;
    let refused = 0;
    const unexpected: string[] = [];
    const refusedByStatus = new Map<number, number>();
    const postValid = async (tenant: Tenant, events: readonly AgentEventInput[]) => {
      const response = await api.as(tenant, '/v1/events', { body: { events } });
      if (response.status === 202) accepted += events.length;
      else unexpected.push(`valid batch of ${events.length} (${tenant}): ${response.status} ${await response.text()}`);
    };
    const sendHostile = async (request: HostileHttpRequest) => {
      const response = await fetch(`${api.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          authorization: `Bearer ${KEYS.acme}`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await response.text();
      const isJsonError = response.headers.get('content-type')?.includes('json') === true && /"error"/.test(text);
      if (response.status >= 400 && response.status < 500 && isJsonError) {
        refused += 1;
        refusedByStatus.set(response.status, (refusedByStatus.get(response.status) ?? 0) + 1);
      } else unexpected.push(`${request.kind}: ${response.status} ${text.slice(0, 200)}`);
    };

    // Batches per tenant keep each tenant's events in trace order (the API publishes a batch in order).
    const batches: { tenant: Tenant; events: AgentEventInput[] }[] = [];
    for (const tenant of tenants) {
      const own = rehomed.filter((event) => event.tenant === tenant);
      for (let i = 0; i < own.length; i += BATCH) batches.push({ tenant, events: own.slice(i, i + BATCH) });
    }
    const steps = Math.max(batches.length, hostile.length, edges.length);
    for (let i = 0; i < steps; i++) {
      // One tenant's batches go out one after another, so its events reach the topic in trace order.
      const batch = batches[i];
      if (batch) await postValid(batch.tenant, batch.events);
      const request = hostile[i];
      if (request) await sendHostile(request);
      const edge = edges[i];
      if (edge) await postValid('acme', [edge]);
    }
    return { accepted, refused, unexpected, refusedByStatus };
  };

  return { valid: [...rehomed, ...edges], hostile, send };
}
