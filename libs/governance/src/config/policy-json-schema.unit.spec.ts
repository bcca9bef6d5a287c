import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError } from './load-config.js';
import { policyJsonSchema } from './policy-json-schema.js';
import { policyVersion } from './policy-version.js';

const onDisk = JSON.parse(
  readFileSync(new URL('../../../../docs/schemas/policy.schema.json', import.meta.url), 'utf8'),
);
const example = JSON.parse(readFileSync(new URL('../../../../examples/policy.json', import.meta.url), 'utf8'));
const validate = new Ajv({ strict: true }).compile(onDisk);

describe('the policy file JSON Schema (docs/schemas/policy.schema.json) and examples/policy.json', () => {
  it('is what the config schema generates (run npm run generate:schemas when this fails)', () => {
    expect(onDisk).toEqual(policyJsonSchema());
  });

  it('accepts the example, which loadConfig also accepts, with its $schema pointer ignored by the policy hash', () => {
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const { $schema: _pointer, ...withoutPointer } = example;
    expect(policyVersion(loadConfig(example))).toBe(policyVersion(loadConfig(withoutPointer)));
    expect(policyVersion(loadConfig(example))).not.toBe(policyVersion(DEFAULT_CONFIG));
  });

  it('refuses what loadConfig refuses field by field: unknown keys, budgets out of range, unknown classes', () => {
    for (const bad of [
      { budgets: {} },
      { classes: { transient: { budget: 51 } } },
      { classes: { flaky: { budget: 1 } } },
      { tools: { t: { budgets: { transient: -1 } } } },
      { backoff: { baseMs: 0 } },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
      expect(() => loadConfig(bad), JSON.stringify(bad)).toThrow(TokenCircuitConfigError);
    }
  });
});
