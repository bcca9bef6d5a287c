import { describe, expect, it } from 'vitest';
import { createGovernor } from '../governor/create-governor.js';
import { GovernorConfigError } from '../errors/sdk-errors.js';
import { resolveOptions, type GovernorOptions } from './governor-options.js';

const http = { http: { url: 'http://127.0.0.1:8080/', apiKey: 'acme-key-0123456789' } };

function problemsOf(options: unknown): string[] {
  try {
    resolveOptions(options as GovernorOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(GovernorConfigError);
    return [...(error as GovernorConfigError).problems];
  }
  throw new Error('expected a GovernorConfigError');
}

describe('createGovernor options', () => {
  it('applies the defaults: a random run per governor, a 1.5 s intervention wait, no trailing slash', () => {
    const a = resolveOptions({ tenant: 'acme', agent: 'report-bot', transport: http });
    const b = resolveOptions({ tenant: 'acme', agent: 'report-bot', transport: http });
    expect(a.run).toMatch(/^run-[0-9a-f-]{36}$/);
    expect(a.run).not.toBe(b.run);
    expect(a).toMatchObject({
      api: { url: 'http://127.0.0.1:8080' },
      kafka: null,
      wait: { budgetMs: 1500 },
      principal: null,
      preflightUnavailable: 'throw',
    });
  });

  it('Kafka transport: topics default to the product topics; api is optional', () => {
    const options = resolveOptions({
      tenant: 'acme',
      agent: 'a',
      transport: { kafka: { brokers: ['127.0.0.1:19092'] } },
    });
    expect(options.kafka).toMatchObject({
      topic: 'tokencircuit.agent-events.v1',
      interventionsTopic: 'tokencircuit.interventions.v1',
    });
    expect(options.api).toBeNull();
  });

  it('lists every problem at once, each with its path', () => {
    expect(
      problemsOf({ tenant: '', agent: 'a', transport: http, waitForIntervention: { budgetMs: -1 }, colour: 'blue' }),
    ).toEqual([
      expect.stringMatching(/^tenant: /),
      expect.stringMatching(/^waitForIntervention/),
      expect.stringMatching(/colour/),
    ]);
  });

  it('says what a transport must look like', () => {
    expect(problemsOf({ tenant: 't', agent: 'a', transport: { amqp: {} } })).toEqual([
      expect.stringMatching(/transport: give \{ kafka: .* or \{ http: /),
    ]);
    expect(problemsOf({ tenant: 't', agent: 'a', transport: { kafka: {} } })).toEqual([
      'transport.kafka: give exactly one of brokers or kafka',
    ]);
    expect(problemsOf({ tenant: 't', agent: 'a', transport: { kafka: { brokers: ['localhost'] } } })).toEqual([
      'transport.kafka.brokers.0: must be host:port',
    ]);
    expect(problemsOf({ tenant: 't', agent: 'a', transport: { http: { url: 'ftp://x', apiKey: 'k' } } })[0]).toMatch(
      /^transport\.http\.url: /,
    );
  });
});

describe('wrapTool meta is checked when the tool is wrapped', () => {
  it('refuses an unknown effect, a bad tool name, unknown keys and wrong types, naming the tool', async () => {
    // The HTTP transport opens no connection until a call is made.
    const governor = await createGovernor({ tenant: 'acme', agent: 'a', transport: http, waitForIntervention: false });
    expect(() => governor.wrapTool('lookup', { effect: 'maybe' as never }, async () => 1)).toThrow(
      /wrapTool\("lookup"\): meta\.effect: /,
    );
    expect(() => governor.wrapTool('', { effect: 'read' }, async () => 1)).toThrow(/name: /);
    expect(() => governor.wrapTool('lookup', { effect: 'read', retries: 3 } as never, async () => 1)).toThrow(
      /retries/,
    );
    expect(() => governor.wrapTool('lookup', { effect: 'read', resourceId: 42 as never }, async () => 1)).toThrow(
      /meta\.resourceId/,
    );
    await governor.close();
  });

  it('keeps the wrapped function recognisable and refuses calls after close()', async () => {
    const governor = await createGovernor({ tenant: 'acme', agent: 'a', transport: http, waitForIntervention: false });
    const lookup = governor.wrapTool(
      'lookup',
      { effect: 'read', preflight: 'never' },
      async function findCustomer(id: string) {
        return { id };
      },
    );
    expect(lookup.name).toBe('findCustomer');
    await governor.close();
    await expect(lookup('c-1')).rejects.toThrow(/governor of run run-.* is closed/);
  });
});
