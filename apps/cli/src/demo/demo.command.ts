import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { ApiClient } from '../api/api-client.js';
import type { ChainReport } from '../api/api-types.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { progressBar } from '../io/progress.js';
import { policyOption } from '../policy/policy-option.js';
import { demoScenarios } from '../scenarios/rfc-scenarios.js';
import { scenarioText } from './demo-text.js';
import { playScenario, type ScenarioPlay } from './play-scenario.js';

interface DemoOptions extends ApiCommandOptions {
  readonly policy?: string;
  readonly tenant?: string;
  readonly timeout: string;
  readonly only?: string;
}

/**
 * `tokencircuit demo`: plays the RFC's five scenarios, then one that pages a person, against a running
 * instance and prints, per scenario, what the agent did, what preflight answered and every intervention with its artifact.
 * Exit 1 when an answer or an intervention is not what the core predicts.
 */
export function demoCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withApiOptions(
    program
      .command('demo')
      .description("play the RFC's five scenarios, then one that pages a person, against a running instance"),
  )
    .option('--tenant <tenant>', "the API key's tenant (default: from the key file, else asked of the API)")
    .option(
      '--policy <file>',
      "the server's policy, for predicting its interventions (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)",
    )
    .option('--timeout <ms>', 'how long to wait for the server at each step', '30000')
    .option('--only <ids>', 'comma-separated scenario ids or numbers (e.g. 1,5 or rfc-5-side-effect; 6 is the page)')
    .action(async (options: DemoOptions) => {
      const timeoutMs = Number(options.timeout);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 100)
        throw usageError(`--timeout: "${options.timeout}" must be an integer of at least 100 (ms)`);
      const out = new Output(io, options.json === true);
      const policy = policyOption(options.policy, io.env, io.cwd);
      const client = apiClientOf(options, io);
      const tenant = options.tenant ?? client.target.tenant ?? (await tenantOf(client));
      // A fresh suffix per run: new run ids, principals and event ids, so earlier demos' state never interferes.
      const suffix = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
      const scenarios = selected(demoScenarios({ tenant, suffix, start: new Date().toISOString() }), options.only);

      out.note(`demo against ${client.target.url} as tenant ${tenant} (suffix ${suffix})`);
      let findings = 0;
      for (const scenario of scenarios) {
        const bar = progressBar(out, scenario.title, scenario.steps.length + 1);
        let play: ScenarioPlay;
        try {
          play = await playScenario(client, scenario, {
            policy,
            timeoutMs,
            signal: io.signal,
            onStep: () => bar.tick(),
          });
        } finally {
          bar.stop();
        }
        const unexpected = play.steps.filter((s) => s.kind === 'preflight' && !s.asExpected).length;
        findings += unexpected;
        for (const step of play.steps) {
          if (step.kind === 'preflight')
            out.record({
              scenario: scenario.id,
              kind: 'preflight',
              says: step.says,
              expect: step.expect,
              ...step.answer,
              asExpected: step.asExpected,
            });
        }
        for (const { detail, after } of play.interventions)
          out.record({ scenario: scenario.id, kind: 'intervention', after, intervention: detail });
        out.text(...scenarioText(play, out.c));
      }
      if (findings > 0) out.note(`${findings} preflight answer(s) differed from what the scenario expects`);
      else out.note(`${scenarios.length} scenario(s) played; every answer and intervention as the core predicts`);
      out.note(
        `follow live: npx tokencircuit tail · query: npx tokencircuit audit --principal <principal> · verify: npx tokencircuit verify`,
      );
      done(findings > 0 ? EXIT.findings : EXIT.ok);
    });
}

/** The key's tenant, from the audit verification answer (which names it). */
async function tenantOf(client: ApiClient): Promise<string> {
  return (await client.getJson<ChainReport>('/v1/audit/verify')).tenant;
}

function selected<T extends { id: string }>(scenarios: T[], only: string | undefined): T[] {
  if (only === undefined) return scenarios;
  const wanted = only.split(',').map((part) => part.trim());
  const picked = scenarios.filter((s, i) => wanted.includes(s.id) || wanted.includes(String(i + 1)));
  const unknown = wanted.filter((w) => !scenarios.some((s, i) => s.id === w || String(i + 1) === w));
  if (unknown.length > 0 || picked.length === 0) {
    throw usageError(
      `--only: unknown scenario(s) ${unknown.join(', ')}; choose from 1-${scenarios.length} or ${scenarios.map((s) => s.id).join(', ')}`,
    );
  }
  return picked;
}
