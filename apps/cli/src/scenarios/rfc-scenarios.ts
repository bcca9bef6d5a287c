import { permissionScenario } from './rfc-1-permission.js';
import { validationScenario } from './rfc-2-validation.js';
import { transientScenario } from './rfc-3-transient.js';
import { emptyResultScenario } from './rfc-4-empty-result.js';
import { sideEffectScenario } from './rfc-5-side-effect.js';
import { unknownRefundScenario } from './page-unknown-refund.js';
import type { Scenario, ScenarioSettings } from './scenario.js';

/** The RFC's five concrete test cases, in the RFC's order. */
export const rfcScenarios = (settings: ScenarioSettings): Scenario[] => [
  permissionScenario(settings),
  validationScenario(settings),
  transientScenario(settings),
  emptyResultScenario(settings),
  sideEffectScenario(settings),
];

/** What `tokencircuit demo` plays: the RFC's five, then one that pages a person. */
export const demoScenarios = (settings: ScenarioSettings): Scenario[] => [
  ...rfcScenarios(settings),
  unknownRefundScenario(settings),
];

/** The settings of the example traces in examples/traces/ (fixed, so the files are reproducible). */
export const EXAMPLE_TRACE_SETTINGS: ScenarioSettings = {
  tenant: 'acme',
  suffix: '',
  start: '2026-03-02T09:00:00.000Z',
};
