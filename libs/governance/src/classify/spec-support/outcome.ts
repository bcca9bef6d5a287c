import {
  ToolCallOutcomeDataSchema,
  type RawErrorInput,
  type ToolCallInput,
  type ToolCallOutcome,
} from '@tokencircuit/contracts';

type OutcomeData = ToolCallOutcome['data'];

export interface OutcomeSpec {
  readonly call?: Partial<ToolCallInput>;
  readonly status?: OutcomeData['status'];
  readonly error?: RawErrorInput | null;
  readonly dispatch?: Partial<OutcomeData['dispatch']>;
  readonly result?: Partial<OutcomeData['result']>;
}

/** A schema-valid outcome (defaults applied exactly as the projector would), failed unless told otherwise. */
export function outcome(spec: OutcomeSpec = {}): OutcomeData {
  const status = spec.status ?? (spec.error === undefined || spec.error === null ? 'succeeded' : 'failed');
  return ToolCallOutcomeDataSchema.parse({
    call: {
      agent: 'agent-1',
      run: 'run-1',
      callId: 'call-1',
      attempt: 1,
      intentId: 'intent-1',
      tool: 'tool',
      effect: 'unknown',
      ...spec.call,
    },
    status,
    error: spec.error ?? null,
    dispatch: spec.dispatch,
    result: spec.result,
  });
}
