import {
  parseAgentEvent,
  type AgentEvent,
  type AgentEventInput,
  type DeclaredEffect,
  type RawErrorInput,
} from '@tokencircuit/contracts';

/** Small, fast, seedable PRNG (mulberry32): traces are reproducible from their seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An event input without its time: the generator's clock stamps it. */
type Untimed = AgentEventInput extends infer E ? (E extends unknown ? Omit<E, 'time'> : never) : never;

export interface TraceOptions {
  readonly seed?: number;
  /** Number of events to produce (the trace stops at the first run boundary past it). */
  readonly events: number;
  readonly tenants?: number;
  /** Principals per tenant: few, so fleet-scoped keys are shared across runs and partitions. */
  readonly principals?: number;
  /**
   * Resource names per resource class (default 3). With many principals too, a wide fleet: fleet-scoped
   * keys rarely meet, so batches touch many distinct coordinates instead of the same few.
   */
  readonly resources?: number;
  readonly startTime?: string;
}

interface ToolProfile {
  readonly tool: string;
  readonly effect: DeclaredEffect;
  readonly resourceClass: string;
  readonly httpMethod: string | null;
  readonly sqlStatement: string | null;
}

const TOOLS: readonly ToolProfile[] = [
  {
    tool: 'sql_query',
    effect: 'read',
    resourceClass: 'sql_namespace',
    httpMethod: null,
    sqlStatement: 'SELECT * FROM t',
  },
  { tool: 'create_order', effect: 'write', resourceClass: 'api_endpoint', httpMethod: 'POST', sqlStatement: null },
  { tool: 'http_get', effect: 'read', resourceClass: 'api_endpoint', httpMethod: 'GET', sqlStatement: null },
  {
    tool: 'update_record',
    effect: 'idempotent_write',
    resourceClass: 'api_endpoint',
    httpMethod: 'PUT',
    sqlStatement: null,
  },
];

/** Documented failure payloads, weighted toward what production sees most (rate limits, timeouts). */
const FAILURES: readonly { weight: number; error: RawErrorInput; sent: boolean | null }[] = [
  {
    weight: 30,
    error: { httpStatus: 503, message: 'Service Unavailable', headers: { 'retry-after': '2' } },
    sent: true,
  },
  { weight: 20, error: { httpStatus: 429, name: 'rate_limit_exceeded', message: 'Rate limit reached' }, sent: true },
  { weight: 12, error: { errno: 'ETIMEDOUT', message: 'socket timeout' }, sent: true },
  { weight: 8, error: { errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, sent: false },
  { weight: 10, error: { httpStatus: 422, message: 'Unprocessable Entity: amount must be positive' }, sent: true },
  { weight: 8, error: { sqlState: '42501', message: 'permission denied for table salaries' }, sent: true },
  { weight: 6, error: { httpStatus: 404, message: 'Not Found' }, sent: true },
  {
    weight: 3,
    error: { sqlState: '23514', message: 'new row violates check constraint "balance_non_negative"' },
    sent: true,
  },
  {
    weight: 3,
    error: { httpStatus: 403, message: 'Forbidden: Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789 lacks scope' },
    sent: true,
  },
];
const FAILURE_WEIGHT = FAILURES.reduce((sum, f) => sum + f.weight, 0);

/**
 * A realistic mixed trace of agent events: many runs over few principals, mostly successes, every
 * failure class, retries (some legitimate, some not), verifier results. Deterministic for a seed.
 */
export function generateTrace(options: TraceOptions): AgentEvent[] {
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const tenants = Array.from({ length: options.tenants ?? 3 }, (_, i) => `tenant-${i + 1}`);
  const principalCount = options.principals ?? 4;
  const resourceNames =
    options.resources === undefined
      ? ['orders', 'salaries', 'customers']
      : Array.from({ length: options.resources }, (_, i) => `resource-${i + 1}`);
  let clock = Date.parse(options.startTime ?? '2026-11-01T00:00:00.000Z');
  const events: AgentEvent[] = [];
  let runNumber = 0;
  const push = (input: Untimed) => {
    clock += 1 + Math.floor(random() * 50);
    events.push(parseAgentEvent({ ...input, time: new Date(clock).toISOString() }));
  };

  while (events.length < options.events) {
    runNumber += 1;
    const tenant = pick(tenants);
    const run = `run-${runNumber}`;
    const agent = `agent-${(runNumber % 17) + 1}`;
    const principal = `svc-${Math.floor(random() * principalCount) + 1}`;
    const calls = 2 + Math.floor(random() * 6);
    for (let c = 1; c <= calls; c++) {
      const profile = pick(TOOLS);
      const intentId = `${run}-intent-${c}`;
      const attempts = random() < 0.25 ? 2 + Math.floor(random() * 3) : 1;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const callId = `${run}-call-${c}-${attempt}`;
        const call = {
          agent,
          run,
          callId,
          attempt,
          intentId,
          tool: profile.tool,
          effect: profile.effect,
          resourceClass: profile.resourceClass,
          resourceId: `${profile.resourceClass}:${pick(resourceNames)}`,
          principal,
          authScope: pick(['read:all', 'write:orders']),
          arguments: { q: `query ${c}`, variant: random() < 0.5 ? attempt : 0 },
          idempotencyKey: profile.effect === 'write' && random() < 0.3 ? `${intentId}-key` : null,
          httpMethod: profile.httpMethod,
          sqlStatement: profile.sqlStatement,
        };
        const base = { tenant, id: `${tenant}:${callId}` };
        push({ ...base, id: `${base.id}:req`, type: 'tool_call.requested', data: { call } });
        const roll = random();
        if (roll < 0.6 && attempt === attempts) {
          const empty = profile.effect === 'read' && random() < 0.1;
          push({
            ...base,
            id: `${base.id}:out`,
            type: 'tool_call.outcome',
            data: { call, status: 'succeeded', result: { empty, rowCount: empty ? 0 : 3 } },
          });
          if (empty && random() < 0.7) {
            push({
              ...base,
              id: `${base.id}:ver`,
              type: 'verifier.result',
              data: {
                agent,
                run,
                callId,
                tool: profile.tool,
                verifier: 'empty_result',
                finding: random() < 0.5 ? 'confirmed' : 'refuted',
              },
            });
          }
        } else {
          let w = random() * FAILURE_WEIGHT;
          const failure = FAILURES.find((f) => (w -= f.weight) < 0) ?? FAILURES[0]!;
          const unknown = profile.effect === 'write' && failure.error.errno === 'ETIMEDOUT';
          push({
            ...base,
            id: `${base.id}:out`,
            type: 'tool_call.outcome',
            data: {
              call,
              status: unknown ? 'unknown' : 'failed',
              error: failure.error,
              dispatch: { requestSent: failure.sent, responseReceived: unknown ? false : failure.sent },
            },
          });
          if (unknown && random() < 0.8) {
            push({
              ...base,
              id: `${base.id}:raw`,
              type: 'verifier.result',
              data: {
                agent,
                run,
                callId,
                tool: profile.tool,
                verifier: 'read_after_write',
                finding: random() < 0.8 ? (random() < 0.5 ? 'confirmed' : 'refuted') : 'inconclusive',
              },
            });
          }
        }
      }
    }
  }
  return events;
}
