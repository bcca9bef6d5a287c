import type { SimulatedDecision } from '../simulate/simulate-trace.js';
import type { Colours } from '../io/colours.js';
import { interventionText } from './intervention-text.js';

/** One simulated outbox entry: the intervention block, or a one-liner when no intervention is needed. */
export function simulatedText(d: SimulatedDecision, c: Colours): string[] {
  const where = `line ${d.line}, ${d.eventId}, ${d.status}`;
  if (d.intervention === null) {
    return [
      `${c.green('no intervention')} ${d.decision.nextAction} · ${d.keyId} ${c.dim(where)}`,
      `  ${c.dim('why'.padEnd(10))} ${d.decision.safetyJustification}`,
      '',
    ];
  }
  return [...interventionText(d.intervention, c, where), ''];
}
