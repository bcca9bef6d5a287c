import type {
  AgentEventInput,
  EmptyCause,
  RawErrorInput,
  ToolCallInput,
  VerifierKind,
  VerifierResultFinding,
} from '@tokencircuit/contracts';
import type { Scenario, ScenarioId, ScenarioSettings, ScenarioStep } from './scenario.js';

type CallFields = Omit<ToolCallInput, 'agent' | 'run' | 'callId' | 'attempt' | 'intentId'>;
type Dispatch = { requestSent?: boolean | null; responseReceived?: boolean | null };

/**
 * Writes one scenario as steps: calls get ids from a counter, events a second apart on the
 * scenario's own clock, and every id, run and principal carries the settings' suffix.
 */
export class ScenarioScript {
  private readonly steps: ScenarioStep[] = [];
  private clockMs: number;
  private events = 0;
  private calls = 0;

  constructor(
    private readonly settings: ScenarioSettings,
    /** Short id prefix of the scenario's events and calls, e.g. "rfc1". */
    private readonly prefix: string,
  ) {
    this.clockMs = Date.parse(settings.start);
    if (Number.isNaN(this.clockMs)) throw new TypeError(`ScenarioScript: start "${settings.start}" is not an ISO time`);
  }

  /** A name made unique by the suffix: "svc-reporting" → "svc-reporting-k3x9". */
  named(base: string): string {
    return this.settings.suffix === '' ? base : `${base}-${this.settings.suffix}`;
  }

  /** The first attempt of a new intent by `agent` in `run`. */
  call(agent: string, run: string, fields: CallFields): ToolCallInput {
    this.calls += 1;
    const n = String(this.calls).padStart(2, '0');
    return { agent, run, callId: this.id(`call${n}`), attempt: 1, intentId: this.id(`intent${n}`), ...fields };
  }

  /** The next attempt of the same intent, optionally with changed fields. */
  retry(previous: ToolCallInput, fields: Partial<CallFields> = {}): ToolCallInput {
    this.calls += 1;
    const n = String(this.calls).padStart(2, '0');
    return { ...previous, ...fields, callId: this.id(`call${n}`), attempt: previous.attempt + 1 };
  }

  requested(call: ToolCallInput, says: string): this {
    return this.event({ type: 'tool_call.requested', data: { call } }, says);
  }

  failed(call: ToolCallInput, error: RawErrorInput, dispatch: Dispatch, durationMs: number, says: string): this {
    return this.event(
      { type: 'tool_call.outcome', data: { call, status: 'failed', durationMs, error, dispatch } },
      says,
    );
  }

  /** The tool cannot tell whether its effect happened (timeout after the request was sent). */
  unknown(call: ToolCallInput, error: RawErrorInput, dispatch: Dispatch, durationMs: number, says: string): this {
    return this.event(
      { type: 'tool_call.outcome', data: { call, status: 'unknown', durationMs, error, dispatch } },
      says,
    );
  }

  succeeded(
    call: ToolCallInput,
    result: { empty?: boolean; rowCount?: number },
    durationMs: number,
    says: string,
  ): this {
    return this.event(
      {
        type: 'tool_call.outcome',
        data: {
          call,
          status: 'succeeded',
          durationMs,
          result,
          dispatch: { requestSent: true, responseReceived: true },
        },
      },
      says,
    );
  }

  verified(
    call: ToolCallInput,
    verifier: VerifierKind,
    finding: VerifierResultFinding,
    resolved: { emptyCause?: EmptyCause; resolvedResourceId?: string },
    detail: string,
    says: string,
  ): this {
    const { agent, run, callId, tool } = call;
    return this.event(
      { type: 'verifier.result', data: { agent, run, callId, tool, verifier, finding, resolved, detail } },
      says,
    );
  }

  /** The agent asks "may this call run now?" before acting. */
  preflight(call: ToolCallInput, expect: 'allow' | 'deny', says: string): this {
    this.steps.push({ kind: 'preflight', tenant: this.settings.tenant, call, says, expect, at: this.now() });
    return this;
  }

  /** Lets time pass on the scenario's clock (e.g. waiting out a Retry-After). */
  wait(ms: number): this {
    this.clockMs += ms;
    return this;
  }

  build(id: ScenarioId, title: string, summary: string, principal: string): Scenario {
    return { id, title, summary, principal, steps: [...this.steps] };
  }

  private event(partial: Pick<AgentEventInput, 'type' | 'data'>, says: string): this {
    this.events += 1;
    this.clockMs += 1_000;
    const event = {
      id: this.id(`e${String(this.events).padStart(2, '0')}`),
      type: partial.type,
      tenant: this.settings.tenant,
      time: this.now(),
      data: partial.data,
    } as AgentEventInput;
    this.steps.push({ kind: 'event', event, says });
    return this;
  }

  private now(): string {
    return new Date(this.clockMs).toISOString();
  }

  private id(local: string): string {
    return this.settings.suffix === '' ? `${this.prefix}-${local}` : `${this.prefix}-${this.settings.suffix}-${local}`;
  }
}
