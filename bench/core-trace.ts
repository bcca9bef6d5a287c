import { createHash } from 'node:crypto';
import type { AgentEvent, RawError, ToolCall, VerifierKind, VerifierResultFinding } from '@tokencircuit/contracts';
import {
  createGovernance,
  DEFAULT_CONFIG,
  producerArgumentsDigest,
  type TokenCircuitConfig,
} from '@tokencircuit/governance';

/** mulberry32: a tiny seeded PRNG, so every benchmark run folds the very same trace. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = [
  { tool: 'sql_query', effect: 'read', httpMethod: null, resourceClass: 'sql_namespace', authScope: 'read:finance' },
  { tool: 'web_search', effect: 'read', httpMethod: 'GET', resourceClass: 'api_endpoint', authScope: null },
  { tool: 'get_ticket', effect: 'read', httpMethod: 'GET', resourceClass: 'api_endpoint', authScope: 'tickets:read' },
  {
    tool: 'create_invoice',
    effect: 'write',
    httpMethod: 'POST',
    resourceClass: 'api_endpoint',
    authScope: 'invoices:write',
  },
  {
    tool: 'update_ticket',
    effect: 'idempotent_write',
    httpMethod: 'PUT',
    resourceClass: 'api_endpoint',
    authScope: 'tickets:write',
  },
  { tool: 'send_email', effect: 'write', httpMethod: 'POST', resourceClass: 'api_endpoint', authScope: 'mail:send' },
  { tool: 'read_file', effect: 'read', httpMethod: null, resourceClass: 'filesystem', authScope: null },
  { tool: 'k8s_get', effect: 'read', httpMethod: 'GET', resourceClass: 'k8s_deployment', authScope: 'k8s:read' },
] as const;

type Failure = 'transient' | 'throttled' | 'validation' | 'permission' | 'missing' | 'timeout' | 'invariant' | 'empty';

const rawError = (over: Partial<RawError>): RawError => ({
  httpStatus: null,
  sqlState: null,
  grpcCode: null,
  errno: null,
  jsonRpcCode: null,
  name: null,
  message: null,
  headers: {},
  classHint: null,
  code: null,
  details: [],
  ...over,
});

const ERRORS: Record<Exclude<Failure, 'timeout' | 'empty'>, RawError> = {
  transient: rawError({ httpStatus: 503, message: 'upstream unavailable' }),
  throttled: rawError({ httpStatus: 429, message: 'rate limited', headers: { 'retry-after': '1' } }),
  validation: rawError({ httpStatus: 422, message: 'field "from": invalid date' }),
  permission: rawError({ httpStatus: 403, message: 'forbidden' }),
  missing: rawError({ httpStatus: 404, message: 'not found' }),
  invariant: rawError({ httpStatus: 409, message: 'balance would go negative', classHint: 'invariant_violation' }),
};

export interface TraceMix {
  readonly events: AgentEvent[];
  readonly byType: Record<string, number>;
  readonly failures: Record<string, number>;
}

/**
 * A realistic mixed fleet trace: many tenants and runs, each run a session of tool calls, most of
 * them succeeding; failures of every class with the follow-ups real agents produce (retries with
 * the same intent, verifiers, repaired arguments, a discovery step). Agents mostly obey decisions:
 * a run stops using a tool whose budget is spent, and a principal denied on a restricted resource
 * stops asking for it — except one attempt in ten, the misbehaving agents the core must catch.
 */
export function generateTrace(target: number, config: TokenCircuitConfig = DEFAULT_CONFIG, seed = 42): TraceMix {
  const governance = createGovernance(config);
  const random = prng(seed);
  const chance = (p: number): boolean => random() < p;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const events: AgentEvent[] = [];
  const failures: Record<string, number> = {};
  const count = (failure: string) => (failures[failure] = (failures[failure] ?? 0) + 1);
  let ms = Date.parse('2025-03-01T00:00:00.000Z');
  let seq = 0;
  const push = (event: Omit<AgentEvent, 'id' | 'time'>) => {
    ms += 1 + Math.floor(random() * 20);
    seq += 1;
    const full = { ...event, id: `bench-${seq}`, time: new Date(ms).toISOString() } as AgentEvent;
    events.push(full);
    return full;
  };
  /** tenant|principal|resource pairs a fleet key stops; the fleet learns them. */
  const denied = new Set<string>();

  let runNo = 0;
  while (events.length < target) {
    runNo += 1;
    const tenant = `tenant-${runNo % 20}`;
    const run = `run-${runNo}`;
    const agent = `agent-${runNo % 500}`;
    const principal = `svc-${Math.floor(random() * 50)}`;
    const stopped = new Set<string>();
    const callsInRun = 5 + Math.floor(random() * 30);
    for (let c = 0; c < callsInRun && events.length < target; c += 1) {
      const shape = pick(TOOLS);
      if (stopped.has(shape.tool)) continue;
      const restricted = chance(0.02);
      const resourceId = restricted ? `restricted-${Math.floor(random() * 10)}` : `res-${Math.floor(random() * 1000)}`;
      const pair = `${tenant}|${principal}|${resourceId}`;
      if (denied.has(pair) && !chance(0.1)) continue;
      const call: ToolCall = {
        agent,
        run,
        callId: `${run}-c${c}`,
        attempt: 1,
        intentId: `${run}-i${c}`,
        tool: shape.tool,
        effect: shape.effect,
        resourceClass: shape.resourceClass,
        resourceId,
        principal,
        authScope: shape.authScope,
        arguments: { q: `query ${c}`, limit: 10 },
        idempotencyKey: null,
        httpMethod: shape.httpMethod,
        sqlStatement: null,
      };
      // A third of the principals may read a given restricted resource; the rest are denied.
      const failure: Failure | null =
        restricted && (principal.length + resourceId.charCodeAt(resourceId.length - 1)) % 3 !== 0
          ? 'permission'
          : chooseFailure(random(), shape.effect);
      if (failure !== null) count(failure);
      const outcome = attempt(call, failure);
      if (failure !== null) followUp(call, failure, outcome, stopped, pair);
    }
  }

  function attempt(call: ToolCall, failure: Failure | null): AgentEvent {
    if (chance(0.8)) push({ type: 'tool_call.requested', tenant: tenantOf(call), data: { call } } as never);
    return push({ type: 'tool_call.outcome', tenant: tenantOf(call), data: outcomeOf(call, failure) } as never);
  }

  function tenantOf(call: ToolCall): string {
    return `tenant-${Number(call.run.slice(4)) % 20}`;
  }

  function followUp(call: ToolCall, failure: Failure, outcome: AgentEvent, stopped: Set<string>, pair: string) {
    let attemptNo = call.attempt;
    const retry = (over: Partial<ToolCall> = {}): ToolCall => {
      attemptNo += 1;
      return { ...call, ...over, callId: `${call.callId}-r${attemptNo}`, attempt: attemptNo };
    };
    const verify = (
      target: ToolCall,
      verifier: VerifierKind,
      finding: VerifierResultFinding,
      resolved: Record<string, unknown> = {},
    ) =>
      push({
        type: 'verifier.result',
        tenant: tenantOf(target),
        data: {
          agent: target.agent,
          run: target.run,
          callId: target.callId,
          tool: target.tool,
          verifier,
          finding,
          resolved: { emptyCause: null, resolvedResourceId: null, ...resolved },
          detail: null,
        },
      } as never);
    switch (failure) {
      case 'transient':
      case 'throttled': {
        // Same intent, up to the budget of two; after that the run gives the tool up.
        if (!chance(0.4)) return void attempt(retry(), null);
        attempt(retry(), 'transient');
        if (!chance(0.4)) return void attempt(retry(), null);
        attempt(retry(), 'transient');
        stopped.add(call.tool);
        return;
      }
      case 'validation': {
        const repaired = retry({ arguments: { q: `${String(call.arguments['q'])} fixed`, limit: 10 } });
        const stillWrong = chance(0.3);
        attempt(repaired, stillWrong ? 'validation' : null);
        if (stillWrong) stopped.add(call.tool);
        return;
      }
      case 'missing':
        verify(call, 'resource_resolution', 'confirmed', { resolvedResourceId: `${call.resourceId}-v2` });
        attempt(retry({ resourceId: `${call.resourceId}-v2` }), null);
        return;
      case 'timeout': {
        const applied = chance(0.5);
        verify(call, 'read_after_write', applied ? 'confirmed' : 'refuted');
        if (!applied) attempt(retry(), null);
        return;
      }
      case 'empty': {
        const valid = chance(0.6);
        verify(call, 'empty_result', valid ? 'confirmed' : 'refuted');
        if (!valid) attempt(retry({ arguments: { q: `${String(call.arguments['q'])} corrected`, limit: 10 } }), null);
        return;
      }
      case 'permission':
      case 'invariant': {
        denied.add(pair);
        if (!chance(0.2)) return;
        const keyId = governance.route(outcome).createKeyId;
        if (keyId === null) return;
        push({
          type: 'operator.resolution',
          tenant: tenantOf(call),
          data: {
            keyId,
            resolution: failure === 'permission' ? 'auth_granted' : 'acknowledged',
            by: 'oncall',
            reason: 'bench',
            unsafeOverride: false,
          },
        } as never);
        if (failure === 'permission') denied.delete(pair);
        return;
      }
      default: {
        const exhaustive: never = failure;
        return exhaustive;
      }
    }
  }

  const byType: Record<string, number> = {};
  for (const e of events) byType[e.type] = (byType[e.type] ?? 0) + 1;
  return { events, byType, failures };
}

function chooseFailure(r: number, effect: string): Failure | null {
  if (r < 0.9) return null;
  if (r < 0.93) return 'transient';
  if (r < 0.94) return 'throttled';
  if (r < 0.96) return 'validation';
  if (r < 0.975) return 'missing';
  if (r < 0.998) return effect === 'read' ? 'empty' : 'timeout';
  return 'invariant';
}

function outcomeOf(call: ToolCall, failure: Failure | null) {
  const base = {
    call,
    durationMs: 42,
    result: { empty: false, rowCount: 3 },
    dispatch: { requestSent: true, responseReceived: true },
  };
  // tool_call.outcome v3: the producer's digest of the result (here: one result per tool and arguments), so
  // every success goes through the no_progress detectors as the SDK's would, and its digest of the arguments,
  // as the SDK computes it (bench:core --no-producer-digests takes it out again: an older producer's trace).
  if (failure === null) {
    const digests = { resultDigest: resultDigestOf(call), argumentsDigest: producerArgumentsDigest(call) };
    return { ...base, status: 'succeeded', error: null, ...digests };
  }
  if (failure === 'empty') return { ...base, status: 'succeeded', error: null, result: { empty: true, rowCount: 0 } };
  if (failure === 'timeout') {
    return {
      ...base,
      status: 'unknown',
      error: rawError({ errno: 'ETIMEDOUT', message: 'socket timeout' }),
      dispatch: { requestSent: true, responseReceived: false },
    };
  }
  return { ...base, status: 'failed', error: ERRORS[failure] };
}

function resultDigestOf(call: ToolCall): string {
  return `sha256:${createHash('sha256')
    .update(`${call.tool}|${JSON.stringify(call.arguments)}`)
    .digest('hex')}`;
}
