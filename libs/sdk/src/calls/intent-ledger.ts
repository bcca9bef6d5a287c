import { argumentsFingerprint } from '@tokencircuit/governance';

/** How the last attempt of an intent ended; only a success closes the intent. */
export type IntentStatus = 'pending' | 'denied' | 'succeeded' | 'failed' | 'unknown';

interface Intent {
  readonly id: string;
  /** Attempts that were actually dispatched (preflight denials do not count). */
  dispatched: number;
  last: IntentStatus;
  /** How the last dispatched attempt ended (a preflight denial did not dispatch): null before the first. */
  lastDispatched: 'succeeded' | 'failed' | 'unknown' | null;
}

/** Enough for a long agent run; the oldest intents are forgotten first (a later retry then starts afresh). */
const MAX_INTENTS = 10_000;

/**
 * Assigns intentId and attempt to each call (the rule is documented in docs/sdk.md):
 * - inside governor.retry(intentId, …) the call belongs to that intent, whatever its arguments;
 * - otherwise a call with the same tool and structurally equal arguments (canonical JSON) as an
 *   earlier call of this governor is a retry of that call's intent, unless that intent succeeded —
 *   doing a successful thing again is a new intent;
 * - attempt = dispatched attempts of the intent + 1; a call denied at preflight never ran, so it
 *   does not use up an attempt number.
 */
export class IntentLedger {
  private readonly byArguments = new Map<string, Intent>();
  private readonly byId = new Map<string, Intent>();

  constructor(private readonly newId: () => string) {}

  /** The intent and attempt number of a call about to be asked for. */
  begin(
    tool: string,
    args: Readonly<Record<string, unknown>>,
    explicitIntentId: string | null,
  ): { intentId: string; attempt: number; previousAttempt: 'succeeded' | 'failed' | 'unknown' | null } {
    const key = `${tool}\u0000${argumentsFingerprint(args)}`;
    let intent: Intent | undefined;
    if (explicitIntentId !== null) {
      intent =
        this.byId.get(explicitIntentId) ??
        this.remember({ id: explicitIntentId, dispatched: 0, last: 'pending', lastDispatched: null });
    } else {
      const earlier = this.byArguments.get(key);
      intent =
        earlier !== undefined && earlier.last !== 'succeeded'
          ? earlier
          : this.remember({ id: this.newId(), dispatched: 0, last: 'pending', lastDispatched: null });
    }
    this.byArguments.delete(key);
    this.byArguments.set(key, intent);
    this.trim(this.byArguments);
    return { intentId: intent.id, attempt: intent.dispatched + 1, previousAttempt: intent.lastDispatched };
  }

  /** The call of `attempt` was dispatched (published as requested and handed to the tool). */
  dispatched(intentId: string, attempt: number): void {
    const intent = this.byId.get(intentId);
    if (intent !== undefined) intent.dispatched = Math.max(intent.dispatched, attempt);
  }

  settle(intentId: string, status: IntentStatus): void {
    const intent = this.byId.get(intentId);
    if (intent === undefined) return;
    intent.last = status;
    if (status === 'succeeded' || status === 'failed' || status === 'unknown') intent.lastDispatched = status;
  }

  private remember(intent: Intent): Intent {
    this.byId.set(intent.id, intent);
    this.trim(this.byId);
    return intent;
  }

  private trim(map: Map<string, Intent>): void {
    while (map.size > MAX_INTENTS) map.delete(map.keys().next().value as string);
  }
}
