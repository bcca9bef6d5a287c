import type { Backoff } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '../config/config.js';
import type { FailureState } from '../model.js';
import { epochMs, isoOf, LATEST_STORABLE_MS } from '../support/time.js';
import { fullJitterMs, jitterFractionOf } from './full-jitter.js';

/**
 * When the next attempt of a retryable key may go: full-jitter exponential backoff over the retries
 * used so far, never shorter than what the server imposed, counted from the last failure. Seeded by
 * key + episode + failure ordinal (not the state version), so the advice stays the same between two
 * failures however many other events touch the key.
 */
export function backoffFor(state: FailureState, config: TokenCircuitConfig): Backoff {
  // The seed is `${keyId}#e${episode}#f${failures}`, hashed in two parts: joined, the key id was copied per decision.
  const fraction = jitterFractionOf(state.keyId, `#e${state.episode}#f${state.failures}`);
  const jitterMs = fullJitterMs(state.retryCount, config.backoff.baseMs, config.backoff.capMs, fraction);
  const server = state.serverDelay;
  const fromServer = server !== null && server.delayMs >= jitterMs;
  const delayMs = fromServer ? server.delayMs : jitterMs;
  return {
    delayMs,
    source: fromServer ? server.source : 'exponential_full_jitter',
    // Capped like the server's delay itself: a later failure must not push the advice past storable time.
    notBefore: isoOf(Math.min(epochMs(state.lastFailureAt, 'lastFailureAt') + delayMs, LATEST_STORABLE_MS)),
  };
}
