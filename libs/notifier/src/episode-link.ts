import type { EpisodeEventData } from '@tokencircuit/contracts';
import { cutText } from './text/cut-text.js';

/** Where a person looks at the step: the dashboard's intervention page, or the dashboard home. Null without a URL. */
export function episodeLink(step: EpisodeEventData, dashboardUrl: string | null): string | null {
  if (dashboardUrl === null) return null;
  const base = `${dashboardUrl.replace(/\/+$/, '')}/dashboard/`;
  return step.interventionId ? `${base}#/interventions/${encodeURIComponent(step.interventionId)}` : base;
}

/** One line for a title: what happened to which key. */
export function episodeTitle(step: EpisodeEventData): string {
  const who = step.principal ? ` by ${step.principal}` : '';
  const where = step.scope === 'run' && step.run ? ` in run ${step.run}` : '';
  return `[${step.level.toUpperCase()}] ${step.failureClass} on ${step.tool}${who}${where} (${step.tenant}): ${step.transition}`;
}

/**
 * Cuts text to `max` characters, marking the cut: providers refuse over-long fields instead of cutting them.
 * Never splits a surrogate pair (cutText).
 */
export const cut = (text: string, max: number): string => cutText(text, max);
