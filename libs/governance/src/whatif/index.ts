export * from './what-if-report.js';
export { WhatIf, whatIf, rankChangedKeys, WHAT_IF_ATTEMPT_LIMIT } from './what-if.js';
export type { DetectorStops, NoProgressStop, NoProgressStops } from './no-progress-stops.js';
