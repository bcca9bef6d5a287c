import {
  parseAgentEvent,
  RESOLUTION_KINDS,
  VERIFIER_FINDINGS,
  VERIFIER_KINDS,
  type AgentEvent,
  type ResolutionKind,
  type ToolCall,
  type VerifierKind,
  type VerifierResultFinding,
} from '@tokencircuit/contracts';
import fc from 'fast-check';
import type { TokenCircuitConfig } from '../config/config.js';
import { route } from '../keys/route.js';

/** What happened to one generated call. "none" = only the request was seen (crash, in flight). */
export const OUTCOMES = [
  'none',
  'success',
  'empty',
  'transient',
  'throttled',
  'validation',
  'permission',
  'missing',
  'timeout_after_send',
  'invariant',
] as const;
export type GeneratedOutcome = (typeof OUTCOMES)[number];

export type TraceStep =
  | {
      readonly kind: 'call';
      readonly tenant: number;
      readonly run: number;
      readonly principal: number;
      readonly tool: number;
      readonly resource: number;
      readonly args: number;
      readonly retry: boolean;
      readonly changeIntent: boolean;
      readonly announce: boolean;
      readonly outcome: GeneratedOutcome;
      readonly gapMs: number;
    }
  | {
      readonly kind: 'verify';
      readonly pick: number;
      /** true = the verifier a real agent would run for one of its recent calls; false = any verifier, any call. */
      readonly fitting: boolean;
      readonly verifier: VerifierKind;
      readonly finding: VerifierResultFinding;
      readonly value: boolean;
      readonly gapMs: number;
    }
  | {
      readonly kind: 'resolve';
      readonly pick: number;
      readonly resolution: ResolutionKind;
      readonly unsafeOverride: boolean;
      readonly otherTenant: boolean;
      readonly gapMs: number;
    };

const TENANTS = ['acme', 'globex'];
const PRINCIPALS = ['svc-a', 'svc-b'];
const RESOURCES = ['finance.salaries', 'finance.ledger'];
const TOOLS = [
  { tool: 'sql_query', effect: 'read', httpMethod: null, resourceClass: 'sql_namespace', authScope: 'read:finance' },
  {
    tool: 'create_invoice',
    effect: 'write',
    httpMethod: 'POST',
    resourceClass: 'api_endpoint',
    authScope: 'invoices:write',
  },
] as const;
// The last two are the same arguments with keys in another order: structurally unchanged.
const ARGUMENTS: readonly Record<string, unknown>[] = [
  { q: 'a' },
  { q: 'b' },
  { q: 'a', limit: 1 },
  { limit: 1, q: 'a' },
];

/** The verifier an agent runs after each kind of outcome (none for outcomes that need none). */
const FITTING_VERIFIER: Readonly<Record<GeneratedOutcome, VerifierKind | null>> = {
  none: null,
  success: null,
  empty: 'empty_result',
  transient: 'same_verifier',
  throttled: 'same_verifier',
  validation: null,
  permission: null,
  missing: 'resource_resolution',
  timeout_after_send: 'read_after_write',
  invariant: null,
};

const gap = fc.integer({ min: 0, max: 5000 });

const callStep = fc.record({
  kind: fc.constant('call' as const),
  tenant: fc.nat(TENANTS.length - 1),
  run: fc.nat(2),
  principal: fc.nat(PRINCIPALS.length - 1),
  tool: fc.nat(TOOLS.length - 1),
  resource: fc.nat(RESOURCES.length - 1),
  args: fc.nat(ARGUMENTS.length - 1),
  retry: fc.boolean(),
  changeIntent: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  announce: fc.boolean(),
  outcome: fc.oneof(
    { weight: 6, arbitrary: fc.constant<GeneratedOutcome>('success') },
    { weight: 10, arbitrary: fc.constantFrom<GeneratedOutcome>(...OUTCOMES) },
  ),
  gapMs: gap,
});

const verifyStep = fc.record({
  kind: fc.constant('verify' as const),
  pick: fc.nat(),
  fitting: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  verifier: fc.constantFrom(...VERIFIER_KINDS),
  finding: fc.constantFrom(...VERIFIER_FINDINGS),
  value: fc.boolean(),
  gapMs: gap,
});

const resolveStep = fc.record({
  kind: fc.constant('resolve' as const),
  pick: fc.nat(),
  resolution: fc.constantFrom(...RESOLUTION_KINDS),
  unsafeOverride: fc.boolean(),
  otherTenant: fc.boolean(),
  gapMs: gap,
});

/** Steps of a realistic fleet trace: mostly calls, some verifiers, a few operator resolutions. */
export const traceSteps = (maxLength = 60): fc.Arbitrary<TraceStep[]> =>
  fc.array(
    fc.oneof(
      { weight: 12, arbitrary: callStep },
      { weight: 3, arbitrary: verifyStep },
      { weight: 1, arbitrary: resolveStep },
    ),
    { minLength: 1, maxLength, size: 'max' },
  );

/**
 * Turns steps into valid events. Retries reuse an earlier call's intent in the same run and tool;
 * verifiers name earlier calls; operators name keys that failures really opened (sometimes from the
 * wrong tenant, which must change nothing).
 */
export function buildTrace(steps: readonly TraceStep[], config: TokenCircuitConfig): AgentEvent[] {
  const events: AgentEvent[] = [];
  const calls: { tenant: string; call: ToolCall; outcome: GeneratedOutcome }[] = [];
  const keys: { tenant: string; keyId: string }[] = [];
  let ms = Date.parse('2025-03-01T09:00:00.000Z');
  const push = (type: AgentEvent['type'], tenant: string, data: unknown, gapMs: number) => {
    ms += gapMs + 1;
    const event = parseAgentEvent({
      type,
      id: `e-${events.length + 1}`,
      tenant,
      time: new Date(ms).toISOString(),
      data,
    });
    events.push(event);
    return event;
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'call': {
        const tenant = TENANTS[step.tenant]!;
        const run = `run-${step.run}`;
        const shape = TOOLS[step.tool]!;
        const previous = step.retry
          ? [...calls].reverse().find((c) => c.tenant === tenant && c.call.run === run && c.call.tool === shape.tool)
          : undefined;
        const n = calls.length + 1;
        const call: ToolCall = {
          agent: `agent-${step.run}`,
          run,
          callId: `call-${n}`,
          attempt: previous ? previous.call.attempt + 1 : 1,
          intentId: previous && !step.changeIntent ? previous.call.intentId : `intent-${n}`,
          tool: shape.tool,
          effect: shape.effect,
          resourceClass: shape.resourceClass,
          resourceId: RESOURCES[step.resource]!,
          principal: PRINCIPALS[step.principal]!,
          authScope: shape.authScope,
          arguments: ARGUMENTS[step.args]!,
          idempotencyKey: null,
          httpMethod: shape.httpMethod,
          sqlStatement: null,
        };
        calls.push({ tenant, call, outcome: step.outcome });
        if (step.announce || step.outcome === 'none') push('tool_call.requested', tenant, { call }, step.gapMs);
        if (step.outcome === 'none') break;
        const outcome = push(
          'tool_call.outcome',
          tenant,
          outcomeData(call, step.outcome),
          step.announce ? 0 : step.gapMs,
        );
        const opened = route(outcome, config).createKeyId;
        if (opened !== null) keys.push({ tenant, keyId: opened });
        break;
      }
      case 'verify': {
        if (calls.length === 0) break;
        const recent = Math.min(calls.length, 4);
        const chosen = step.fitting
          ? calls[calls.length - 1 - (step.pick % recent)]!
          : calls[step.pick % calls.length]!;
        const { tenant, call } = chosen;
        const verifier = (step.fitting ? FITTING_VERIFIER[chosen.outcome] : null) ?? step.verifier;
        const resolved =
          verifier === 'empty_result'
            ? { emptyCause: step.value ? ('target_absent' as const) : null }
            : verifier === 'resource_resolution'
              ? { resolvedResourceId: step.value ? RESOURCES[1] : null }
              : {};
        push(
          'verifier.result',
          tenant,
          {
            agent: call.agent,
            run: call.run,
            callId: call.callId,
            tool: call.tool,
            verifier,
            finding: step.finding,
            resolved,
          },
          step.gapMs,
        );
        break;
      }
      case 'resolve': {
        if (keys.length === 0) break;
        const { tenant, keyId } = keys[step.pick % keys.length]!;
        const as = step.otherTenant ? TENANTS.find((t) => t !== tenant)! : tenant;
        push(
          'operator.resolution',
          as,
          {
            keyId,
            resolution: step.resolution,
            by: 'oncall',
            reason: 'generated',
            unsafeOverride: step.unsafeOverride,
          },
          step.gapMs,
        );
        break;
      }
      default: {
        const exhaustive: never = step;
        return exhaustive;
      }
    }
  }
  return events;
}

function outcomeData(call: ToolCall, outcome: Exclude<GeneratedOutcome, 'none'>): unknown {
  const failed = (error: Record<string, unknown>) => ({
    call,
    status: 'failed',
    error,
    dispatch: { requestSent: true, responseReceived: true },
  });
  switch (outcome) {
    case 'success':
      return { call, status: 'succeeded', result: { empty: false, rowCount: 3 } };
    case 'empty':
      return call.effect === 'read'
        ? { call, status: 'succeeded', result: { empty: true, rowCount: 0 } }
        : { call, status: 'succeeded' };
    case 'transient':
      return failed({ httpStatus: 503, message: 'upstream unavailable', classHint: 'transient' });
    case 'throttled':
      return failed({ httpStatus: 429, headers: { 'retry-after': '2' }, classHint: 'transient' });
    case 'validation':
      return failed({ httpStatus: 422, message: 'bad field', classHint: 'validation' });
    case 'permission':
      return failed({ httpStatus: 403, message: 'forbidden', classHint: 'permission' });
    case 'missing':
      return failed({ httpStatus: 404, message: 'no such resource', classHint: 'missing_resource' });
    case 'invariant':
      return failed({ httpStatus: 409, message: 'ledger would go negative', classHint: 'invariant_violation' });
    case 'timeout_after_send':
      return {
        call,
        status: 'unknown',
        error: { errno: 'ETIMEDOUT', message: 'socket timeout' },
        dispatch: { requestSent: true, responseReceived: false },
      };
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}
