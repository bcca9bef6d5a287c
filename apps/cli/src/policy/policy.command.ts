import type { Command } from 'commander';
import { canonicalJson, policyVersion } from '@tokencircuit/governance';
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
      out.record({ file, policyVersion: version, policy });
      out.text(
        `policy ${file} is valid`,
        `version  ${version}`,
        JSON.stringify(JSON.parse(canonicalJson(policy)), null, 2),
      );
      done(EXIT.ok);
    });
}
