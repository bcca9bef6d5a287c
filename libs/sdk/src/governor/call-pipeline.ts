import { randomUUID } from 'node:crypto';
import { compiledToolCall, ToolCallSchema, type ToolCall, type ToolCallOutcomeData } from '@tokencircuit/contracts';
import { isReadCall, producerArgumentsDigest } from '@tokencircuit/governance';
import type { CallRecord } from '../calls/call-handle.js';
import { captureFailure, failureStatus } from '../capture/failure.js';
import { resultDigestOf } from '../capture/result-digest.js';
import { resultFacts, type IsEmpty } from '../capture/result-facts.js';
import { defaultArguments, recordableArguments } from '../capture/tool-arguments.js';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { InterventionWait } from '../options/governor-options.js';
import { derive, type ToolMeta } from '../options/tool-meta.js';
import type { GovernorRuntime } from './runtime.js';
import { interventionStop, preflightStop, stops } from './stops.js';
import { BudgetExceededError } from '../errors/budget-exceeded-error.js';
import type { SpendEstimate } from '../transport/preflight-client.js';

/** The outcome's usage member when the tool reads one from its result (a throwing reader reports none). */
function usageOf<A extends unknown[], R>(meta: ToolMeta<A, R>, result: Awaited<R>) {
  if (meta.usage === undefined) return {};
  try {
    const usage = meta.usage(result);
    return usage ? { usage } : {};
  } catch {
    return {};
  }
}

/**
 * One governed call, in order: intent and attempt → preflight (a "no" throws TokenCircuitError and the
 * tool never runs) → tool_call.requested → the tool → tool_call.outcome → on failure, the
 * intervention it caused (block/page throws TokenCircuitError with the tool's error as cause, anything
 * else rethrows the tool's own error).
 */
export async function runGovernedCall<A extends unknown[], R>(
  rt: GovernorRuntime,
  tool: string,
  meta: ToolMeta<A, R>,
  fn: (...args: A) => R | Promise<R>,
  self: unknown,
  args: A,
): Promise<Awaited<R>> {
  rt.assertOpen();
  const { call, context } = buildCall(rt, tool, meta, args);
  const record: CallRecord = {
    callId: call.callId,
    intentId: call.intentId,
    attempt: call.attempt,
    tool,
    agent: call.agent,
    run: call.run,
    status: 'pending',
    requestedEventId: null,
    outcomeEventId: null,
    intervention: null,
  };
  rt.registry.add(record);

  if (rt.preflight !== null && (meta.preflight ?? 'always') === 'always') {
    const estimate = derive(meta.estimate, args, null);
    const answer = await askPreflightWaitingOutBackoff(rt, call, meta.preflightUnavailable, estimate);
    if (answer?.budget && answer.budget.level !== 'ok' && answer.budget.level !== 'block') {
      meta.onBudget?.(answer.budget, { tool, run: call.run });
    }
    if (answer?.allow && answer.advice) meta.onAdvice?.(answer.advice, { tool, run: call.run });
    if (answer !== null && !answer.allow && answer.budget?.level === 'block') {
      record.status = 'denied';
      rt.ledger.settle(call.intentId, 'denied');
      const stop = new BudgetExceededError(answer.reason, answer.budget, record);
      rt.registry.tagError(stop, record);
      throw stop;
    }
    if (answer !== null && !answer.allow) {
      record.status = 'denied';
      rt.ledger.settle(call.intentId, 'denied');
      const stop = preflightStop(answer, record);
      rt.registry.tagError(stop, record);
      throw stop;
    }
  }

  const requested = rt.events.event('tool_call.requested', { call });
  // A read's request need not be on record before it leaves (it changes nothing); anything that may write
  // is acknowledged first, so the record of the attempt exists even if this process dies mid-call.
  if (isReadCall(call)) await rt.publishInBackground(requested);
  else await rt.publish(requested);
  record.requestedEventId = requested.id;
  record.status = 'running';
  rt.ledger.dispatched(call.intentId, call.attempt);

  const started = performance.now();
  let result: Awaited<R>;
  try {
    result = await fn.apply(self, args);
  } catch (toolError) {
    await reportFailure(rt, meta, call, context, record, toolError, performance.now() - started);
    throw toolError;
  }
  const isEmpty = (meta.isEmpty as IsEmpty | undefined) ?? rt.options.isEmpty ?? undefined;
  const outcome = rt.events.event('tool_call.outcome', {
    call,
    status: 'succeeded',
    durationMs: performance.now() - started,
    result: resultFacts(result, isEmpty),
    dispatch: { requestSent: true, responseReceived: true },
    ...context,
    resultDigest: resultDigestOf(result),
    // Digested here, once per call, so the fleet's fold need not walk the arguments of every success again.
    argumentsDigest: producerArgumentsDigest(call),
    ...usageOf(meta, result),
  });
  record.status = 'succeeded';
  rt.ledger.settle(call.intentId, 'succeeded');
  // Nothing waits on a success's outcome: with an ordered sink it leaves after the result is returned.
  await rt.publishInBackground(outcome, { toolRan: true, toolResult: result });
  record.outcomeEventId = outcome.id;
  return result;
}

/** Publishes the failed/unknown outcome and throws TokenCircuitError when an intervention stops the agent. */
async function reportFailure<A extends unknown[], R>(
  rt: GovernorRuntime,
  meta: ToolMeta<A, R>,
  call: ToolCall,
  context: OutcomeContext,
  record: CallRecord,
  toolError: unknown,
  durationMs: number,
): Promise<void> {
  const failure = captureFailure(toolError);
  const status = failureStatus(failure, isReadCall(call));
  const outcome = rt.events.event('tool_call.outcome', {
    call,
    status,
    durationMs,
    error: failure.error,
    dispatch: failure.dispatch,
    ...context,
    // What the tool declared wins: a wrapper may see an AWS-shaped error from a proxy in front of Stripe.
    provider: context.provider ?? failure.provider,
    protocol: context.protocol ?? failure.protocol,
  });
  record.status = status;
  rt.ledger.settle(call.intentId, status);
  rt.registry.tagError(toolError, record);
  await rt.publish(outcome, { toolRan: true, toolError });
  record.outcomeEventId = outcome.id;

  const wait = waitOf(rt, meta.waitForIntervention);
  if (rt.watch === null || wait === null) return;
  const intervention = await rt.watch.waitFor(outcome.id, wait);
  record.intervention = intervention;
  if (intervention !== null && stops(intervention)) {
    const stop = interventionStop(intervention, record, toolError);
    rt.registry.tagError(stop, record);
    throw stop;
  }
}

/** The intervention budget for this tool in ms, or null when it should not wait. */
function waitOf(rt: GovernorRuntime, own: boolean | InterventionWait | undefined): number | null {
  if (own === false) return null;
  if (typeof own === 'object' && own.budgetMs !== undefined) return own.budgetMs;
  return rt.options.wait?.budgetMs ?? (own === true ? 1_500 : null);
}

/** The contract-v2 context of an outcome that the SDK knows before the tool runs. */
type OutcomeContext = Pick<
  ToolCallOutcomeData,
  'provider' | 'protocol' | 'previousAttempt' | 'identifierChosenBy' | 'transaction' | 'preconditions'
>;

function buildCall<A extends unknown[], R>(
  rt: GovernorRuntime,
  tool: string,
  meta: ToolMeta<A, R>,
  args: A,
): { call: ToolCall; context: OutcomeContext } {
  const argumentsRecord = recordableArguments(meta.arguments ? meta.arguments(...args) : defaultArguments(args));
  const { intentId, attempt, previousAttempt } = rt.ledger.begin(tool, argumentsRecord, rt.retryIntent());
  const { options } = rt;
  const described = {
    agent: options.agent,
    run: options.run,
    callId: randomUUID(),
    attempt,
    intentId,
    tool,
    effect: meta.effect,
    resourceClass: meta.resourceClass ?? null,
    resourceId: derive(meta.resourceId, args, null),
    principal: meta.principal === undefined ? options.principal : meta.principal,
    authScope: meta.authScope === undefined ? options.authScope : meta.authScope,
    arguments: argumentsRecord,
    idempotencyKey: meta.idempotencyKey ? meta.idempotencyKey(...args) : null,
    httpMethod: derive(meta.httpMethod, args, null),
    sqlStatement: derive(meta.sqlStatement, args, null),
  };
  const call = compiledToolCall(described) ?? describedByZod(tool, described);
  const transaction = derive(meta.transaction, args, null);
  const context: OutcomeContext = {
    provider: meta.provider?.toLowerCase() ?? null,
    protocol: meta.protocol?.toLowerCase() ?? null,
    previousAttempt,
    identifierChosenBy: derive(meta.identifierChosenBy, args, null),
    transaction: transaction === null ? null : { mode: transaction.mode, aborted: transaction.aborted ?? null },
    preconditions: [...derive(meta.preconditions, args, [])],
  };
  return { call, context };
}

/** The zod path: the one authority for a refusal and its message (and whatever the compiled check leaves to it). */
function describedByZod(tool: string, described: unknown): ToolCall {
  const parsed = ToolCallSchema.safeParse(described);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new TypeError(
    `${tool}: the call cannot be described to TokenCircuit: ${issue.path.join('.')}: ${issue.message}`,
  );
}

/** Longest backoff the SDK waits out by itself before asking again; longer ones surface as a TokenCircuitError. */
const BACKOFF_WAIT_LIMIT_MS = 2_000;

/**
 * A "retry with backoff" answer is not a stop: it says when. Short backoffs (full jitter after a reconciled
 * write or a transient blip is usually well under a second) are waited out here and preflight is asked
 * again, so the agent neither hammers the service nor gives up on a call the engine would allow.
 */
async function askPreflightWaitingOutBackoff(
  rt: GovernorRuntime,
  call: ToolCall,
  unavailable: 'throw' | 'allow' | undefined,
  estimate: SpendEstimate | null,
) {
  let answer = await askPreflight(rt, call, unavailable, estimate);
  for (let waits = 0; waits < 3 && answer !== null && !answer.allow; waits++) {
    // A poll whose result has not changed is slowed the same way (no_progress: poll_less_often).
    const next = answer.decision?.nextAction;
    const backoff = next === 'retry_with_backoff' || next === 'poll_less_often' ? answer.decision!.backoff : null;
    if (!backoff) break;
    const waitMs = Date.parse(backoff.notBefore) - Date.now();
    if (!(waitMs <= BACKOFF_WAIT_LIMIT_MS)) break;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs) + 10));
    answer = await askPreflight(rt, call, unavailable, estimate);
  }
  return answer;
}

async function askPreflight(
  rt: GovernorRuntime,
  call: ToolCall,
  unavailable: 'throw' | 'allow' | undefined,
  estimate: SpendEstimate | null,
) {
  try {
    return await rt.preflight!.check(call, estimate);
  } catch (error) {
    // Only an unreachable API may be waved through, and only when the operator chose so; a bad key never.
    const choice = unavailable ?? rt.options.preflightUnavailable;
    if (error instanceof ApiRequestError && error.retriable && choice === 'allow') return null;
    throw error;
  }
}
