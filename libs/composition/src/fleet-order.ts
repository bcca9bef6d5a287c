export type FleetModuleName = 'projector' | 'decision' | 'notifier' | 'api';

/** Every module a fleet process can run. */
export const FLEET_MODULES: readonly FleetModuleName[] = ['projector', 'decision', 'notifier', 'api'];

/** Consumers before the API that feeds them; the notifier after the decision service whose steps it sends. */
export const FLEET_START_ORDER: readonly FleetModuleName[] = ['projector', 'decision', 'notifier', 'api'];

/**
 * The API first (no new events), then the projector, then the decision service drains what it has; the
 * notifier last, so it sends what the decision service published while draining. The same in every mode.
 */
export const FLEET_STOP_ORDER: readonly FleetModuleName[] = ['api', 'projector', 'decision', 'notifier'];
