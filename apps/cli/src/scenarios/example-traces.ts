import { eventsOf, type Scenario } from './scenario.js';

/** A scenario's events as the JSON-lines text of its example trace file. */
export const traceText = (scenario: Scenario): string =>
  eventsOf(scenario)
    .map((event) => `${JSON.stringify(event)}\n`)
    .join('');

export const traceFileName = (scenario: Scenario): string => `${scenario.id}.jsonl`;
