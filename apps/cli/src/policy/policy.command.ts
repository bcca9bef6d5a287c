import type { Command } from 'commander';
import { canonicalJson, noProgressOf, policyVersion, type NoProgressPolicy } from '@tokencircuit/governance';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { policyOption } from './policy-option.js';

/**
 * `tokencircuit policy check FILE`: validates a TokenCircuitConfig file exactly as the services load
 * it and prints the resolved policy (every default filled in) and its version hash, the one every
 * artifact decided under it records. A problem is exit 2 naming the file and the field.
 */
export function policyCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('policy')
    .description('work with policy files (TokenCircuitConfig JSON, docs/schemas/policy.schema.json)')
    .command('check')
    .description('validate a policy file and print the resolved policy and its hash')
    .argument('<file>', 'the policy file (what TOKENCIRCUIT_POLICY_FILE names)')
    .option('--json', 'one JSON object: { file, policyVersion, policy }')
    .action((file: string, options: { json?: boolean }) => {
      const out = new Output(io, options.json === true);
      const policy = policyOption(file, {}, io.cwd);
      const version = policyVersion(policy);
      const noProgress = noProgressOf(policy);
      const source = policy.noProgress === undefined ? 'defaults' : 'this policy';
      out.record({ file, policyVersion: version, policy, noProgress: { source, ...noProgress } });
      out.text(
        `policy ${file} is valid`,
        `version  ${version}`,
        JSON.stringify(JSON.parse(canonicalJson(policy)), null, 2),
        ...noProgressLines(noProgress, source),
      );
      done(EXIT.ok);
    });
}

/** The no_progress thresholds in force (docs/no-progress.md), the defaults included: they decide too. */
function noProgressLines(p: NoProgressPolicy, source: string): string[] {
  const t = (x: { adviseAt: number; blockAt: number; pageAt: number | null }) =>
    `advise ${x.adviseAt}, block ${x.blockAt}${x.pageAt === null ? '' : `, page ${x.pageAt}`}`;
  if (!p.enabled) return [`no_progress detectors (${source}): off`];
  return [
    `no_progress detectors (${source}), over the last ${p.window} calls per run and tool:`,
    `  same call, same result  read: ${t(p.sameCall.read)}; write: ${t(p.sameCall.write)}`,
    `  cycles (up to ${p.cycle.maxLength} calls)   turns: ${t(p.cycle)}`,
    `  polling without change  ${p.polling.tools.length === 0 ? 'no poller named' : p.polling.tools.join(', ')}: ${t(p.polling)} unchanged polls; delay ${p.polling.baseDelayMs} ms doubling to ${p.polling.maxDelayMs} ms`,
    `  volatile fields         ${
      Object.entries(p.volatileFields)
        .map(([tool, names]) => `${tool}: ${names.join(', ')}`)
        .join('; ') || 'none'
    }`,
    `  fleet-wide loops        ${p.fleet.runs} runs on one tool call within ${p.fleet.windowHours} h: preflight advises the next run`,
  ];
}
