import {
  parseAgentEvent,
  ToolCallSchema,
  type AgentEvent,
  type DispatchSchema,
  type EmptyCause,
  type RawErrorInput,
  type ResolutionKind,
  type ToolCall,
  type ToolCallInput,
  type VerifierKind,
  type VerifierResultDataV1Input,
  type VerifierResultFinding,
} from '../index.js';
import type { z } from 'zod';
import type { outcomeContextShape } from '../outcome-context.js';
import { Timeline } from './timeline.js';

type CallFields = Partial<Omit<ToolCallInput, 'agent' | 'run' | 'attempt' | 'tool'>>;
type DispatchFields = Partial<z.input<typeof DispatchSchema>>;

/** What contract v2 lets an outcome say about its situation (provider, protocol, preconditions, ...). */
export type OutcomeContextFields = Partial<z.input<z.ZodObject<typeof outcomeContextShape>>>;

/**
 * An agent of the fleet as a spec sees it: it makes calls and reports what happened, producing
 * validated events (parseAgentEvent fills the contract's defaults) on a shared timeline.
 */
export class SpecAgent {
  private calls = 0;

  constructor(
    private readonly timeline: Timeline,
    readonly tenant: string,
    readonly agent: string,
    readonly run: string,
    private readonly defaults: CallFields = {},
  ) {}

  /** A first attempt at a new intent. */
  call(tool: string, fields: CallFields = {}): ToolCall {
    this.calls += 1;
    const n = `${this.run}-${this.calls}`;
    return ToolCallSchema.parse({
      effect: 'read',
      ...this.defaults,
      ...fields,
      agent: this.agent,
      run: this.run,
      callId: fields.callId ?? `call-${n}`,
      attempt: 1,
      intentId: fields.intentId ?? `intent-${n}`,
      tool,
    });
  }

  /** The next attempt of the same intent (new call id), optionally with changed fields. */
  retry(previous: ToolCall, fields: CallFields = {}): ToolCall {
    this.calls += 1;
    return ToolCallSchema.parse({
      ...previous,
      ...fields,
      callId: fields.callId ?? `call-${this.run}-${this.calls}`,
      attempt: previous.attempt + 1,
    });
  }

  requested(call: ToolCall): AgentEvent {
    return this.event('tool_call.requested', { call });
  }

  failed(
    call: ToolCall,
    error: RawErrorInput,
    dispatch: DispatchFields = {},
    context: OutcomeContextFields = {},
  ): AgentEvent {
    return this.event('tool_call.outcome', { call, status: 'failed', error, dispatch, durationMs: 120, ...context });
  }

  succeeded(call: ToolCall, result: { empty?: boolean; rowCount?: number } = {}): AgentEvent {
    return this.event('tool_call.outcome', { call, status: 'succeeded', result, durationMs: 80 });
  }

  /** The tool cannot tell whether its effect happened (e.g. a timeout after the request was sent). */
  unknown(call: ToolCall, error: RawErrorInput | null, dispatch: DispatchFields): AgentEvent {
    return this.event('tool_call.outcome', { call, status: 'unknown', error, dispatch, durationMs: 30_000 });
  }

  /** A verifier.result (contract v2) about `call`. */
  verified(
    call: ToolCall,
    verifier: VerifierKind,
    finding: VerifierResultFinding,
    resolved: { emptyCause?: EmptyCause; resolvedResourceId?: string } = {},
    detail: string | null = null,
  ): AgentEvent {
    return this.event('verifier.result', {
      agent: this.agent,
      run: this.run,
      callId: call.callId,
      tool: call.tool,
      verifier,
      finding,
      resolved,
      detail,
    });
  }

  /** The same as a contract v1 producer sends it (`passed` + `resolved`), converted at the edge. */
  verifiedV1(
    call: ToolCall,
    verifier: VerifierKind,
    passed: boolean,
    resolved: VerifierResultDataV1Input['resolved'] = {},
    detail: string | null = null,
  ): AgentEvent {
    return this.event('verifier.result', {
      agent: this.agent,
      run: this.run,
      callId: call.callId,
      tool: call.tool,
      verifier,
      passed,
      resolved,
      detail,
    });
  }

  private event(type: AgentEvent['type'], data: unknown): AgentEvent {
    return parseAgentEvent({ type, ...this.timeline.next(), tenant: this.tenant, data });
  }
}

/** A human resolving keys by id. */
export class SpecOperator {
  constructor(
    private readonly timeline: Timeline,
    readonly tenant: string,
    readonly name: string,
  ) {}

  resolves(keyId: string, resolution: ResolutionKind, reason: string, unsafeOverride = false): AgentEvent {
    return parseAgentEvent({
      type: 'operator.resolution',
      ...this.timeline.next(),
      tenant: this.tenant,
      data: { keyId, resolution, by: this.name, reason, unsafeOverride },
    });
  }
}
