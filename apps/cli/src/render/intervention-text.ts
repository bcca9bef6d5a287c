import type { ArtifactReclassification, Backoff, DiagnosticArtifact, EquivalenceKey } from '@tokencircuit/contracts';
import type { Colours } from '../io/colours.js';
import { levelTag } from './level-colour.js';

/** What the human rendering of an intervention needs; InterventionData and the audit API's detail both fit. */
export interface InterventionView {
  readonly level: string;
  readonly nextAction: string;
  readonly backoff?: Backoff | null;
  readonly artifact: DiagnosticArtifact;
  readonly agent?: string | null;
  readonly run?: string | null;
}

export const keyFieldsText = (key: EquivalenceKey): string =>
  `tool_name=${key.tool_name} resource_class=${key.resource_class ?? '∅'} auth_scope=${key.auth_scope ?? '∅'} ` +
  `error_class=${key.error_class} side_effect_boundary=${key.side_effect_boundary}`;

/**
 * "ambiguous_effect → validation by verifier:empty_result:refuted:wrong_query at … (event …)": why the class
 * differs from the key's error_class, which keeps the class the key opened with.
 */
export const reclassificationText = (r: ArtifactReclassification): string =>
  `${r.from} → ${r.to} by ${r.by} at ${r.at} (event ${r.event_id})`;

export const backoffText = (backoff: Backoff): string =>
  `${backoff.delayMs} ms (${backoff.source.replaceAll('_', ' ')}), not before ${backoff.notBefore}`;

/**
 * A short block per intervention: what the engine decided, then why — safety justification,
 * budget and retry count, the raw key fields, the redacted receipts and the side-effect evidence.
 */
export function interventionText(view: InterventionView, c: Colours, heading = ''): string[] {
  const a = view.artifact;
  const who = [
    view.agent ? `agent ${view.agent}` : null,
    view.run ? `run ${view.run}` : null,
    a.principal ? `principal ${a.principal}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
  const budget = `${a.budget}${a.budget_exhausted ? ', exhausted' : ''}`;
  const verifier = a.verifier_required === null ? 'none required' : `${a.verifier_required} (${a.verifier_status})`;
  const label = (name: string) => c.dim(name.padEnd(10));
  const lines = [
    `${levelTag(view.level, c)} ${c.bold(view.nextAction)} · ${a.failure_class} · ${a.equivalence_key.tool_name}${heading ? c.dim(`  ${heading}`) : ''}`,
    `  ${label('why')} ${a.safety_justification}`,
    `  ${label('budget')} ${budget} · retry count ${a.retry_count} · verifier ${verifier}`,
    ...(view.backoff ? [`  ${label('backoff')} ${backoffText(view.backoff)}`] : []),
    `  ${label('key')} ${a.key_id}`,
    `  ${label('key fields')} ${keyFieldsText(a.equivalence_key)}`,
    `  ${label('class')} ${a.classification_reason}${who ? ` · ${who}` : ''}`,
    ...(a.reclassification ? [`  ${label('from class')} ${reclassificationText(a.reclassification)}`] : []),
    ...a.sample_receipts.map((receipt, i) => `  ${label(i === 0 ? 'receipts' : '')} ${receipt}`),
    `  ${label('evidence')} ${a.side_effect_evidence.join(', ') || '—'}`,
    `  ${label('policy')} ${a.policy_version} · state v${a.state_version} · events ${a.causing_event_ids.join(', ')}`,
  ];
  return lines;
}
