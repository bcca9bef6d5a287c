/**
 * Regenerates examples/traces/*.jsonl (the RFC's five) and examples/pages/*.jsonl (the demo's page) from the scenario builders (the demo plays the same
 * scenarios): `npx tsx apps/cli/src/scenarios/write-example-traces.ts`. A unit spec fails when the
 * files and the builders disagree.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tracePath, traceText } from './example-traces.js';
import { demoScenarios, EXAMPLE_TRACE_SETTINGS } from './rfc-scenarios.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
for (const scenario of demoScenarios(EXAMPLE_TRACE_SETTINGS)) {
  writeFileSync(`${root}${tracePath(scenario)}`, traceText(scenario));
  process.stdout.write(`wrote ${tracePath(scenario)}\n`);
}
