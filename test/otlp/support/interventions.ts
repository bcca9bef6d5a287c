import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import { waitFor } from '@tokencircuit/testing';
import type { FleetStack } from '../../sdk/support/fleet-stack.js';

export interface StoredIntervention {
  level: string;
  next_action: string;
  failure_class: string;
  artifact: DiagnosticArtifact;
  causing_event_ids: string[];
}

/** Waits until the decision service recorded an intervention caused by one of these events. */
export function interventionCausedBy(
  stack: FleetStack,
  eventIds: readonly string[],
  name: string,
): Promise<StoredIntervention> {
  return waitFor(
    async () => {
      const { rows } = await stack.database.pool.query<StoredIntervention>(
        `SELECT level, next_action, failure_class, artifact, causing_event_ids FROM interventions
          WHERE causing_event_ids && $1::text[] ORDER BY seq LIMIT 1`,
        [eventIds],
      );
      return rows[0] ?? null;
    },
    { maxWait: 30_000, name },
  );
}
