import { randomUUID } from 'node:crypto';
import type { AgentEventInput, ToolCallInput } from '../agent-events.js';

// Producer input, unvalidated, as an SDK sends it (defaulted fields left out, fresh ids): the bodies the HTTP
// edge is given, including deliberately invalid ones (a call with attempt 0 is still expressible here, where
// SpecAgent would refuse it). For validated events on a shared timeline, use SpecAgent. Specs build their
// events here (parseAgentEvent(...) for a typed AgentEvent) rather than as literals of their own.

/** What an outcome says after its call: its status and what came back. */
export type OutcomeFields = Omit<Extract<AgentEventInput, { type: 'tool_call.outcome' }>['data'], 'call'>;

/** Where an event stands: its id (fresh by default) and time. */
export interface EventAt {
  readonly id?: string;
  readonly time?: string;
}

/** Any outcome of `call`: the general form of the named outcomes below. */
export function outcome(
  tenant: string,
  call: ToolCallInput,
  fields: OutcomeFields,
  { id = randomUUID(), time = '2026-01-05T10:00:01.000Z' }: EventAt = {},
): AgentEventInput {
  return { type: 'tool_call.outcome', id, tenant, time, data: { call, ...fields } };
}

export function toolCall(overrides: Partial<ToolCallInput> = {}): ToolCallInput {
  return {
    agent: 'report-agent',
    run: 'run-1',
    callId: `call-${randomUUID()}`,
    attempt: 1,
    intentId: 'intent-quarterly-report',
    tool: 'sql.query',
    effect: 'read',
    resourceClass: 'sql_namespace',
    resourceId: 'finance.salaries',
    principal: 'svc-reporting',
    authScope: 'finance:read',
    arguments: { q: 'SELECT sum(amount) FROM finance.salaries' },
    sqlStatement: 'SELECT',
    ...overrides,
  };
}

/** A call's request; `at` is its time, or its id and time. */
export function requested(
  tenant: string,
  call: ToolCallInput = toolCall(),
  at: string | EventAt = '2026-01-05T10:00:00.000Z',
): AgentEventInput {
  const { id = randomUUID(), time = '2026-01-05T10:00:00.000Z' } = typeof at === 'string' ? { time: at } : at;
  return { type: 'tool_call.requested', id, tenant, time, data: { call } };
}

/** RFC case 1: the principal is denied on the namespace (SQLSTATE 42501). */
export function permissionDenied(
  tenant: string,
  call: ToolCallInput = toolCall(),
  time = '2026-01-05T10:00:01.000Z',
): AgentEventInput {
  return {
    type: 'tool_call.outcome',
    id: randomUUID(),
    tenant,
    time,
    data: {
      call,
      status: 'failed',
      error: { sqlState: '42501', name: 'insufficient_privilege', message: 'permission denied for table salaries' },
      dispatch: { requestSent: true, responseReceived: true },
    },
  };
}

export function succeeded(
  tenant: string,
  call: ToolCallInput = toolCall(),
  time = '2026-01-05T10:00:02.000Z',
): AgentEventInput {
  return {
    type: 'tool_call.outcome',
    id: randomUUID(),
    tenant,
    time,
    data: { call, status: 'succeeded', result: { empty: false, rowCount: 3 } },
  };
}

/** RFC case 5: a POST that timed out after dispatch: the effect is unknown, not failed. */
export function timedOutAfterDispatch(
  tenant: string,
  call: ToolCallInput,
  time = '2026-01-05T10:00:01.000Z',
): AgentEventInput {
  return {
    type: 'tool_call.outcome',
    id: randomUUID(),
    tenant,
    time,
    data: {
      call,
      status: 'unknown',
      error: { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms' },
      dispatch: { requestSent: true, responseReceived: false },
    },
  };
}

/** RFC case 3: a 503 from an HTTP API. */
export function unavailable(tenant: string, call: ToolCallInput, time = '2026-01-05T10:00:01.000Z'): AgentEventInput {
  return {
    type: 'tool_call.outcome',
    id: randomUUID(),
    tenant,
    time,
    data: {
      call,
      status: 'failed',
      error: { httpStatus: 503, message: 'Service Unavailable' },
      dispatch: { requestSent: true, responseReceived: true },
    },
  };
}

type DataOf<T extends AgentEventInput['type']> = Extract<AgentEventInput, { type: T }>['data'];

/** An operator's resolution of a key (acknowledged, resolved, reset, ...). */
export function resolution(
  tenant: string,
  data: DataOf<'operator.resolution'>,
  { id = randomUUID(), time = '2026-01-05T10:00:03.000Z' }: EventAt = {},
): AgentEventInput {
  return { type: 'operator.resolution', id, tenant, time, data };
}

/** A verifier's finding about a call (v2 data, or v1's `passed` for the edge's conversion). */
export function verifierResult(
  tenant: string,
  data: DataOf<'verifier.result'>,
  { id = randomUUID(), time = '2026-01-05T10:00:03.000Z' }: EventAt = {},
): AgentEventInput {
  return { type: 'verifier.result', id, tenant, time, data };
}

/**
 * An agent loop of `turns` model turns in one run, one second apart from 2026-01-05T10:00:00Z: each turn's request
 * (id `req-N`) and its successful outcome (id `out-N`) reading `inputTokens` and writing `outputTokens` of
 * gpt-4o-mini. What spend specs replay or settle against a budget.
 */
export function modelLoop(
  tenant: string,
  turns: number,
  {
    agent = 'writer-bot',
    run = 'run-1',
    tool = 'llm.chat',
    inputTokens = 800,
    outputTokens = 200,
  }: { agent?: string; run?: string; tool?: string; inputTokens?: number; outputTokens?: number } = {},
): AgentEventInput[] {
  return Array.from({ length: turns }, (_, i) => {
    const call = toolCall({ agent, run, callId: `turn-${i + 1}`, intentId: `turn-${i + 1}`, tool });
    const time = new Date(Date.UTC(2026, 0, 5, 10, 0, i)).toISOString();
    return [
      requested(tenant, call, { id: `req-${i + 1}`, time }),
      outcome(
        tenant,
        call,
        { status: 'succeeded', usage: { model: 'gpt-4o-mini', inputTokens, outputTokens } },
        { id: `out-${i + 1}`, time },
      ),
    ];
  }).flat();
}
