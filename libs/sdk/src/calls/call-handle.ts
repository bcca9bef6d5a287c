import type { InterventionData } from '@tokencircuit/contracts';

/** Where one wrapped call got to: denied before it ran, running, or its outcome. */
export type CallStatus = 'pending' | 'denied' | 'running' | 'succeeded' | 'failed' | 'unknown';

/** What the SDK knows about one call; pass it to governor.verify to reconcile the call. */
export interface CallHandle {
  readonly callId: string;
  readonly intentId: string;
  readonly attempt: number;
  readonly tool: string;
  readonly agent: string;
  readonly run: string;
  readonly status: CallStatus;
  /** Id of the tool_call.requested event (null while denied or not yet published). */
  readonly requestedEventId: string | null;
  /** Id of the tool_call.outcome event (null until the outcome is published). */
  readonly outcomeEventId: string | null;
  /** The intervention the backend issued for this call's failure, when one arrived in time. */
  readonly intervention: InterventionData | null;
}

/** The SDK's own, mutable view of a handle; callers only ever see it as a CallHandle. */
export type CallRecord = { -readonly [K in keyof CallHandle]: CallHandle[K] };
