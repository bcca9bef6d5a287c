import { z } from 'zod';
import {
  DecisionLevelSchema,
  DiagnosticArtifactSchema,
  NextActionSchema,
  type InterventionData,
} from '@tokencircuit/contracts';
import { ApiRequestError } from '../errors/sdk-errors.js';
import type { ApiClient } from './api-client.js';
import type { InterventionWatch } from './intervention-watch.js';

const PageSchema = z.object({
  items: z.array(z.object({ id: z.string(), causingEventIds: z.array(z.string()) })),
});
const DetailSchema = z.object({
  id: z.string(),
  tenant: z.string(),
  run: z.string().nullable(),
  agent: z.string().nullable(),
  keyId: z.string(),
  level: DecisionLevelSchema,
  nextAction: NextActionSchema,
  policyVersion: z.string(),
  stateVersion: z.number().int().nonnegative(),
  causingEventIds: z.array(z.string()),
  issuedAt: z.string(),
  artifact: DiagnosticArtifactSchema,
});

/**
 * Without Kafka, the audit API is where interventions can be seen: GET /v1/audit/interventions?run=
 * is polled until one lists the event among its causes, then its detail supplies the artifact. The
 * audit trail does not keep the backoff, so `backoff` is null on interventions found this way.
 */
export class HttpInterventionPoll implements InterventionWatch {
  constructor(
    private readonly api: ApiClient,
    private readonly run: string,
    private readonly pollIntervalMs: number,
  ) {}

  async waitFor(eventId: string, budgetMs: number): Promise<InterventionData | null> {
    const deadline = Date.now() + budgetMs;
    const list = `/v1/audit/interventions?run=${encodeURIComponent(this.run)}&order=desc&limit=50`;
    for (;;) {
      try {
        const page = (await this.api.get(list, PageSchema)) as z.infer<typeof PageSchema>;
        const hit = page.items.find((item) => item.causingEventIds.includes(eventId));
        if (hit !== undefined) {
          const detail = (await this.api.get(
            `/v1/audit/interventions/${encodeURIComponent(hit.id)}`,
            DetailSchema,
          )) as z.infer<typeof DetailSchema>;
          return {
            interventionId: detail.id,
            tenant: detail.tenant,
            run: detail.run,
            agent: detail.agent,
            keyId: detail.keyId,
            level: detail.level,
            nextAction: detail.nextAction,
            backoff: null,
            artifact: detail.artifact,
            policyVersion: detail.policyVersion,
            stateVersion: detail.stateVersion,
            causingEventIds: detail.causingEventIds,
            issuedAt: detail.issuedAt,
          };
        }
      } catch (error) {
        // A wrong key or URL is a configuration error and must be seen; an unreachable API just costs this wait.
        if (!(error instanceof ApiRequestError) || !error.retriable) throw error;
      }
      if (Date.now() + this.pollIntervalMs > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, this.pollIntervalMs));
    }
  }

  async close(): Promise<void> {}
}
