import type { InterventionRecord } from '../api/api-types.js';
import type { Colours } from '../io/colours.js';
import { levelTag } from './level-colour.js';

/** One audit-trail row as one line: when, how loud, what next, what failed, for whom. */
export function recordLine(r: InterventionRecord, c: Colours): string {
  const who = [
    r.principal ? `principal=${r.principal}` : null,
    r.run ? `run=${r.run}` : null,
    r.agent ? `agent=${r.agent}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(' ');
  return `${c.dim(`#${r.seq}`)} ${r.issuedAt} ${levelTag(r.level, c)} ${c.bold(r.nextAction)} ${r.failureClass} ${r.toolName} ${who} ${c.dim(r.id)}`;
}
