import type { ComposedModule } from '@tokencircuit/service-kit';

export type FleetModuleName = 'projector' | 'decision' | 'notifier' | 'api';

/** Consumers before the API that feeds them; the notifier after the decision service whose steps it sends. */
export const FLEET_START_ORDER: readonly FleetModuleName[] = ['projector', 'decision', 'notifier', 'api'];

/**
 * The API first (no new events), then the projector, then the decision service drains what it has; the
 * notifier last, so it sends what the decision service published while draining. The same in both modes.
 */
export const FLEET_STOP_ORDER: readonly FleetModuleName[] = ['api', 'projector', 'decision', 'notifier'];

/** A mode's modules (absent: not run, e.g. the notifier without a routing file) in the fleet's start order. */
export function fleetModules(
  modules: Partial<Record<FleetModuleName, Omit<ComposedModule, 'name'>>>,
): ComposedModule[] {
  return FLEET_START_ORDER.flatMap((name) => {
    const module = modules[name];
    return module ? [{ name, start: () => module.start() }] : [];
  });
}
