import type { Command } from 'commander';
import { decide } from '@tokencircuit/governance';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { FailureStateRecord } from '../api/api-types.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { policyOption } from '../policy/policy-option.js';
import { stateText } from '../render/state-text.js';

interface StateOptions extends ApiCommandOptions {
  readonly policy?: string;
}

/** `tokencircuit state <keyId>`: GET /v1/state/:keyId, plus what the core decides on it now. */
export function stateCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withApiOptions(
    program
      .command('state')
      .description("show a key's current failure state (exit 1 when there is none)")
      .argument('<keyId>', 'the key id, as printed in artifacts (quote it: it contains "|")'),
  )
    .option(
      '--policy <file>',
      'policy for the "decision" line (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)',
    )
    .action(async (keyId: string, options: StateOptions) => {
      const out = new Output(io, options.json === true);
      const policy = policyOption(options.policy, io.env, io.cwd);
      const record = await apiClientOf(options, io).getJson<FailureStateRecord>(
        `/v1/state/${encodeURIComponent(keyId)}`,
      );
      out.record(record);
      const note =
        options.policy || io.env.TOKENCIRCUIT_POLICY_FILE
          ? '(under the given policy)'
          : '(under the RFC default policy)';
      out.text(...stateText(record.state, decide(record.state, policy), note, out.c));
      done(EXIT.ok);
    });
}
