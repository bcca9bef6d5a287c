import { z } from 'zod';
import { TokenCircuitConfigInputSchema } from './config-schema.js';

/**
 * The JSON Schema of a policy file (TokenCircuitConfig as a deployment writes it), generated from the
 * zod schema loadConfig validates with, so editors can complete and check policy files. The safety
 * floor (permission and invariant budgets stay 0 without an audited unsafeOverride) is a rule across
 * fields that JSON Schema does not state: `tokencircuit policy check` applies it.
 */
export function policyJsonSchema(): Record<string, unknown> {
  const { $schema, ...body } = z.toJSONSchema(TokenCircuitConfigInputSchema, {
    io: 'input',
    target: 'draft-07',
    unrepresentable: 'throw',
  });
  return {
    $schema,
    title: 'TokenCircuitConfig',
    description:
      'A TokenCircuit policy file (TOKENCIRCUIT_POLICY_FILE): budgets per failure class and per tool, backoff, and ' +
      'the audited unsafeOverride. Every part is optional; what is left out takes the RFC defaults. Budgets above 0 ' +
      'for permission or invariant_violation are refused unless unsafeOverride names the class.',
    ...body,
  };
}
