import { eventsOf, type Scenario } from './scenario.js';

/** A scenario's events as the JSON-lines text of its example trace file. */
export const traceText = (scenario: Scenario): string =>
  eventsOf(scenario)
    .map((event) => `${JSON.stringify(event)}\n`)
    .join('');

export const traceFileName = (scenario: Scenario): string => `${scenario.id}.jsonl`;

/**
 * Where a scenario's example trace lives, from the repository root: the RFC's five in examples/traces/ (docs
 * run `whatif` over examples/traces/*.jsonl), the demo's page in examples/pages/.
 */
export const tracePath = (scenario: Scenario): string =>
  `examples/${scenario.id.startsWith('rfc-') ? 'traces' : 'pages'}/${traceFileName(scenario)}`;
