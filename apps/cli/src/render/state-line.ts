import type { FailureStateSummary } from '../api/api-types.js';
import type { Colours } from '../io/colours.js';

/** One listed failure state as one line: what stands, since when, for whom, and its key id to look closer. */
export function stateLine(s: FailureStateSummary, c: Colours): string {
  const where =
    s.scope === 'fleet' ? `principal=${s.principal ?? '∅'} resource=${s.resourceId ?? '∅'}` : `run=${s.run ?? '∅'}`;
  const status = s.status === 'open' || s.status === 'resolved' ? s.status : c.bold(s.status);
  return `${s.updatedAt} ${status} ${s.failureClass} ${s.toolName} ${where} retries ${s.retryCount}/${s.budget} since ${s.openedAt} ${c.dim(s.keyId)}`;
}
