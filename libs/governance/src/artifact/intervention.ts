import type { InterventionData } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import { policyVersion } from '../config/policy-version.js';
import { decide } from '../decide/decide.js';
import { isAcknowledgementOnly } from '../episode/acknowledgement.js';
import type { OutboxEntry } from '../state/outbox-entry.js';
import { epochMs } from '../support/time.js';
import { buildArtifact } from './build-artifact.js';
import { uuidV5 } from './intervention-id.js';

/**
 * The intervention an outbox entry produces, or null when the decision needs none (e.g. a key that
 * resolved). `issuedAt` is the decision service's clock, passed in so this stays pure. The id is a
 * UUIDv5 of the outbox id: deciding the same entry twice yields the same intervention id.
 */
export function interventionFor(
  entry: OutboxEntry,
  config: TokenCircuitConfig,
  issuedAt: string,
): InterventionData | null {
  epochMs(issuedAt, 'issuedAt');
  const state = entry.snapshot;
  // An acknowledgement tells the people on call (an episode event), not the agents: nothing new to act on.
  if (isAcknowledgementOnly(state)) return null;
  const decision = decide(state, config);
  if (!decision.intervene) return null;
  const artifact = buildArtifact(state, decision, config);
  return {
    interventionId: uuidV5(entry.id),
    tenant: entry.tenant,
    run: state.key.run ?? state.lastCall.run,
    agent: state.lastCall.agent,
    keyId: entry.keyId,
    level: decision.level,
    nextAction: decision.nextAction,
    backoff: decision.backoff,
    artifact: artifact as InterventionData['artifact'],
    policyVersion: policyVersion(config),
    stateVersion: entry.stateVersion,
    causingEventIds: [...state.causingEventIds],
    issuedAt,
  };
}
