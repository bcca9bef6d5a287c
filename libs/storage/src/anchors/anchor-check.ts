import type { ChainHead, SignedAnchor } from './audit-anchor.js';
import type { EventsHead } from './events-digest.js';

/** What the stored trail says at the anchor's positions, recomputed now from the tables. */
export interface AnchorFacts {
  readonly tenant: string;
  /** The tenant's intervention with the anchor's chain seq (null when there is none). */
  readonly chainAtAnchor: ChainHead | null;
  /** The tenant's newest intervention now. */
  readonly chainHead: ChainHead | null;
  /** The tenant's events recomputed through the anchor's events.through. */
  readonly events: EventsHead;
}

export type AnchorFindingCode =
  | 'other_tenant'
  | 'chain_rows_removed'
  | 'chain_row_missing'
  | 'chain_row_rewritten'
  | 'events_removed'
  | 'events_added'
  | 'events_rewritten';

export interface AnchorFinding {
  readonly code: AnchorFindingCode;
  readonly message: string;
}

/**
 * The comparison rule: everything the anchor covers must still be there, unchanged. The chain row the
 * anchor names must exist with the anchored hash (its hash covers every earlier row through prev_hash, so
 * with an intact chain the whole prefix is as anchored); the tenant's events up to the anchored seq must
 * count and digest as anchored. Rows and events after the anchor are new, not findings.
 */
export function checkAgainstAnchor(anchor: SignedAnchor, facts: AnchorFacts): AnchorFinding[] {
  const findings: AnchorFinding[] = [];
  if (anchor.tenant !== facts.tenant) {
    return [
      { code: 'other_tenant', message: `the anchor is of tenant ${anchor.tenant}, the trail of ${facts.tenant}` },
    ];
  }
  const at = anchor.anchoredAt;
  if (anchor.chain) {
    const anchored = anchor.chain;
    if (facts.chainAtAnchor === null) {
      const head = facts.chainHead;
      if (head === null || head.seq < anchored.seq) {
        findings.push({
          code: 'chain_rows_removed',
          message:
            `interventions removed: the anchor of ${at} holds #${anchored.seq} (${anchored.hash}) ` +
            `but the chain now ends at ${head ? `#${head.seq}` : 'nothing'} (the newest rows were deleted)`,
        });
      } else {
        findings.push({
          code: 'chain_row_missing',
          message: `intervention #${anchored.seq}, anchored on ${at}, is missing (the chain now ends at #${head.seq})`,
        });
      }
    } else if (facts.chainAtAnchor.hash !== anchored.hash) {
      findings.push({
        code: 'chain_row_rewritten',
        message:
          `intervention #${anchored.seq} was rewritten after it was anchored on ${at}: ` +
          `its hash is now ${facts.chainAtAnchor.hash}, the anchor holds ${anchored.hash}`,
      });
    }
  }
  const want = anchor.events;
  const have = facts.events;
  if (have.count < want.count) {
    findings.push({
      code: 'events_removed',
      message: `agent events removed: ${want.count} anchored through seq ${want.through} on ${at}, ${have.count} there now`,
    });
  } else if (have.count > want.count) {
    findings.push({
      code: 'events_added',
      message: `agent events inserted below the anchor: ${want.count} anchored through seq ${want.through} on ${at}, ${have.count} there now`,
    });
  } else if (have.digest !== want.digest) {
    findings.push({
      code: 'events_rewritten',
      message: `agent events through seq ${want.through} were edited after they were anchored on ${at} (digest ${have.digest}, anchored ${want.digest})`,
    });
  }
  return findings;
}
