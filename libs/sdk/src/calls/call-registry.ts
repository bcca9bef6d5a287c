import type { CallHandle, CallRecord } from './call-handle.js';

/** Calls kept for verify() and callOf(); a verifier runs soon after its call, so the newest suffice. */
const KEPT_CALLS = 10_000;

/** The governor's memory of its own calls, by id, by tool, and by the error a call threw. */
export class CallRegistry {
  private readonly byId = new Map<string, CallRecord>();
  private readonly lastByTool = new Map<string, CallRecord>();
  private last: CallRecord | null = null;
  private readonly byError = new WeakMap<object, CallRecord>();

  add(record: CallRecord): void {
    this.byId.set(record.callId, record);
    if (this.byId.size > KEPT_CALLS) this.byId.delete(this.byId.keys().next().value as string);
    this.lastByTool.set(record.tool, record);
    this.last = record;
  }

  /** Remembers which call threw `error`, so the agent's error handler can find the call to verify. */
  tagError(error: unknown, record: CallRecord): void {
    if (typeof error === 'object' && error !== null) this.byError.set(error, record);
  }

  get(callId: string): CallHandle | null {
    return this.byId.get(callId) ?? null;
  }

  ofError(error: unknown): CallHandle | null {
    return typeof error === 'object' && error !== null ? (this.byError.get(error) ?? null) : null;
  }

  lastCall(tool?: string): CallHandle | null {
    return tool === undefined ? this.last : (this.lastByTool.get(tool) ?? null);
  }
}
