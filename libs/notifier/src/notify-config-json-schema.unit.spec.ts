import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadNotifyConfig } from './load-notify-config.js';
import { notifyConfigJsonSchema } from './notify-config-json-schema.js';

const onDisk = JSON.parse(
  readFileSync(new URL('../../../docs/schemas/notify-config.schema.json', import.meta.url), 'utf8'),
);
const example = JSON.parse(readFileSync(new URL('../../../examples/notify.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ strict: true });
// CommonJS default export: the function is on `.default` for TypeScript, either shape at run time.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;
addFormats(ajv);
const validate = ajv.compile(onDisk);

describe('the routing file JSON Schema (docs/schemas/notify-config.schema.json) and examples/notify.json', () => {
  it('is what the zod schema generates (run npm run generate:schemas when this fails)', () => {
    expect(onDisk).toEqual(notifyConfigJsonSchema());
  });

  it('accepts the example, which the notifier also accepts', () => {
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const config = loadNotifyConfig(example, {
      PD_ROUTING_KEY: 'k',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/x',
      WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    expect([...config.sinks.keys()]).toEqual(['oncall', 'chat', 'audit', 'am']);
  });

  it('refuses what the notifier refuses: an unknown sink type, an unknown field', () => {
    expect(validate({ sinks: { a: { type: 'email' } }, routes: [{ sinks: ['a'] }] })).toBe(false);
    expect(validate({ sinks: {}, routes: [{ sinks: ['a'], extra: true }] })).toBe(false);
  });
});

describe("the README's routing file", () => {
  it('is five lines that page PagerDuty on page and post block to Slack, and the notifier accepts it', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Paging the people on call'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section)![1]!;
    expect(block.split('\n')).toHaveLength(5);
    const json = JSON.parse(block);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    const config = loadNotifyConfig(json, {
      PD_ROUTING_KEY: 'k',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/x',
    });
    expect(config.routes).toEqual([
      { match: { level: ['page'] }, sinks: ['pd'] },
      { match: { level: ['block'] }, sinks: ['slack'] },
    ]);
    expect([...config.sinks.values()].map((s) => s.type)).toEqual(['pagerduty', 'slack']);
  });
});
