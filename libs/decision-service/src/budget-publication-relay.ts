import type { InterventionPublisher } from '@tokencircuit/decision-relay';
import {
  claimPendingBudgetPublications,
  markBudgetPublished,
  readBudgetPublications,
  type SqlDatabase,
} from '@tokencircuit/storage';

/** How long a pending budget publication is left to the API's fast path before the relay takes it. */
export const BUDGET_PUBLICATION_GRACE_MS = 2_000;

/**
 * Publishes the budget interventions and episode steps nobody published yet (budget_publications, migration
 * 0043): the crossings the projector's settle appended, and those whose publish by the API failed after its
 * commit. One transaction per batch, as the writer role across tenants: claim (FOR UPDATE SKIP LOCKED), read the
 * stored rows, publish through the decision service's InterventionPublisher (the topics in connected mode, the
 * bus when embedded), mark published, commit. A failed publish rolls the batch back and leaves it pending; a
 * crash after the publish and before the commit republishes the same ids, which subscribers dedupe on.
 */
export class BudgetPublicationRelay {
  constructor(
    private readonly db: SqlDatabase,
    private readonly publisher: InterventionPublisher,
    private readonly batchSize = 200,
    private readonly graceMs = BUDGET_PUBLICATION_GRACE_MS,
  ) {}

  /** Publishes every pending publication older than the grace, in batches; the number published. */
  async round(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.db.transaction(async (tx) => {
        const claimed = await claimPendingBudgetPublications(tx, this.batchSize, this.graceMs);
        if (claimed.length === 0) return 0;
        const { interventions, episodes } = await readBudgetPublications(tx, claimed);
        await this.publisher.publish(interventions, episodes);
        await markBudgetPublished(
          tx,
          claimed.map((c) => c.interventionId),
        );
        return claimed.length;
      });
      total += published;
      if (published < this.batchSize) return total;
    }
  }
}
