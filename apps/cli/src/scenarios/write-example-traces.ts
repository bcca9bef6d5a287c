/**
 * Regenerates examples/traces/*.jsonl (the RFC's five and the demo's page) from the scenario builders (the demo plays the same
 * scenarios): `npx tsx apps/cli/src/scenarios/write-example-traces.ts`. A unit spec fails when the
 * files and the builders disagree.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { traceFileName, traceText } from './example-traces.js';
import { demoScenarios, EXAMPLE_TRACE_SETTINGS } from './rfc-scenarios.js';

const folder = fileURLToPath(new URL('../../../../examples/traces/', import.meta.url));
for (const scenario of demoScenarios(EXAMPLE_TRACE_SETTINGS)) {
  writeFileSync(`${folder}${traceFileName(scenario)}`, traceText(scenario));
  process.stdout.write(`wrote examples/traces/${traceFileName(scenario)}\n`);
}
