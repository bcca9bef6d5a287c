import type { EpisodeEventData, InterventionClass } from '@tokencircuit/contracts';
import { cutText, cutTextStart } from './cut-text.js';
import { identifyingArguments, type ShownArgument } from './identifying-arguments.js';
import { nextActionText, type NextActionText } from './next-action-text.js';

/** PagerDuty accepts 1,024 characters; a person reads one line on a lock screen. */
export const SUMMARY_MAX_CHARS = 120;

/** One fact of the evidence, labelled for a person. */
export interface EvidenceItem {
  readonly label: string;
  readonly value: string;
}

/**
 * What every sink says about one episode step, in the order a person needs it: one line (who, what, on
 * which resource, what to do first), the next allowed action, the identifying arguments, the evidence.
 */
export interface NotificationText {
  readonly summary: string;
  readonly nextAction: NextActionText;
  readonly arguments: { readonly shown: readonly ShownArgument[]; readonly more: number };
  /** Facts first, the engine's full justification last ("Why"). */
  readonly evidence: readonly EvidenceItem[];
}

const WHAT: Record<InterventionClass, string> = {
  permission: 'access denied',
  validation: 'arguments rejected',
  transient: 'repeated failures',
  missing_resource: 'resource not found',
  invariant_violation: 'invariant broken',
  ambiguous_effect: 'write of unknown outcome',
  no_progress: 'calls making no progress',
  budget: 'spend budget crossed',
};

/** The step's words for a person. `args` are the causing call's arguments (null when unknown). */
export function notificationText(
  step: EpisodeEventData,
  args: Readonly<Record<string, unknown>> | null,
): NotificationText {
  const artifact = step.artifact;
  const nextAction = nextActionText(artifact?.next_allowed_action ?? 'proceed', {
    principal: step.principal,
    resource_id: artifact?.resource_id ?? null,
    key_id: step.keyId,
    authScope: artifact?.equivalence_key.auth_scope ?? null,
  });
  return {
    summary: summaryLine(step, nextAction),
    nextAction,
    arguments: identifyingArguments(args),
    evidence: evidenceOf(step),
  };
}

/** What happened to whom, as one sentence's subject: "an empty result of search.orders". */
function whatOf(step: EpisodeEventData): string {
  if (step.failureClass === 'ambiguous_effect' && step.artifact?.verifier_required === 'empty_result')
    return 'unverified empty result';
  return WHAT[step.failureClass];
}

function actorOf(step: EpisodeEventData): string {
  const actor = step.actor;
  if (actor === null) return '';
  return actor.by ? ` by ${actor.by}` : actor.kind === 'operator' ? ' by an operator' : ` by ${actor.kind}`;
}

/**
 * "refund-agent: write of unknown outcome (refund.create on payments:/v1/refunds) — check whether the
 * write happened", at most SUMMARY_MAX_CHARS: the resource is shortened from its start first (its end
 * names it), then the agent and the tool, then the line is cut.
 */
function summaryLine(step: EpisodeEventData, next: NextActionText): string {
  const who = step.agent ?? step.principal ?? step.tenant;
  const first =
    step.transition === 'resolved'
      ? `resolved${actorOf(step)}`
      : step.transition === 'acknowledged'
        ? `acknowledged${actorOf(step)}`
        : next.first;
  const resource = step.artifact?.resource_id ?? null;
  const line = (w: string, tool: string, res: string | null) =>
    `${w}: ${whatOf(step)} (${tool}${res === null ? '' : ` on ${res}`}) — ${first}`;
  let text = line(who, step.tool, resource);
  if (text.length > SUMMARY_MAX_CHARS && resource !== null) {
    const room = SUMMARY_MAX_CHARS - (text.length - resource.length);
    text = line(who, step.tool, cutTextStart(resource, Math.max(16, room)));
  }
  if (text.length > SUMMARY_MAX_CHARS) {
    text = line(cutText(who, 24), cutText(step.tool, 32), resource === null ? null : cutTextStart(resource, 24));
  }
  return cutText(text, SUMMARY_MAX_CHARS);
}

function evidenceOf(step: EpisodeEventData): EvidenceItem[] {
  const a = step.artifact;
  const items: Array<[string, string | null]> = [
    ['Level', step.previousLevel ? `${step.previousLevel} → ${step.level}` : step.level],
    ['Class', a ? `${step.failureClass} (${a.classification_reason})` : step.failureClass],
    ['Tool', step.tool],
    ['Resource', a?.resource_id ?? null],
    ['Principal', step.principal],
    ['Agent', step.agent],
    [step.scope === 'run' ? 'Run' : 'Scope', step.scope === 'run' ? step.run : 'fleet (every run)'],
    ['Tenant', step.tenant],
    ['Budget', a ? `${a.retry_count} of ${a.budget} retries used${a.budget_exhausted ? ' (exhausted)' : ''}` : null],
    ['Verifier', a?.verifier_required ? `${a.verifier_required} (${a.verifier_status})` : null],
    ['Receipts', a && a.sample_receipts.length > 0 ? a.sample_receipts.join(' | ') : null],
    ['Side-effect evidence', a && a.side_effect_evidence.length > 0 ? a.side_effect_evidence.join(', ') : null],
    ['Key', step.keyId],
    ['Episode', `${step.episode} (${step.episodeId}), opened ${step.openedAt}`],
    ['Intervention', step.interventionId],
    ['Policy', a?.policy_version ?? null],
    ['Why', step.summary],
  ];
  return items.flatMap(([label, value]) => (value === null || value === '' ? [] : [{ label, value }]));
}
