import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { NotifyConfig } from './load-notify-config.js';
import type { RouteMatch } from './notify-config.js';

/** Whether one route's match holds for an episode step: every field given must list the step's value. */
export function matches(match: RouteMatch, step: EpisodeEventData): boolean {
  const holds = <T>(allowed: readonly T[] | undefined, value: T | null): boolean =>
    allowed === undefined || (value !== null && allowed.includes(value));
  return (
    holds(match.level, step.level) &&
    holds(match.tenant, step.tenant) &&
    holds(match.class, step.failureClass) &&
    holds(match.tool, step.tool) &&
    holds(match.principal, step.principal)
  );
}

/**
 * The sinks an episode step goes to, in config order, each once. Acknowledgements and resolutions also go
 * to every sink that already carried this episode (`alreadyNotified`), so an incident opened by an earlier
 * route is closed where it was opened even when no route matches the step itself.
 */
export function routeEpisode(
  config: NotifyConfig,
  step: EpisodeEventData,
  alreadyNotified: readonly string[] = [],
): string[] {
  const sinks = new Set<string>();
  for (const route of config.routes) {
    if (matches(route.match, step)) for (const name of route.sinks) sinks.add(name);
  }
  if (step.transition === 'acknowledged' || step.transition === 'resolved') {
    for (const name of alreadyNotified) if (config.sinks.has(name)) sinks.add(name);
  }
  return [...sinks];
}
