import type { Command } from 'commander';
import { createGovernance } from '@tokencircuit/governance';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { FailureStateRecord } from '../api/api-types.js';
import { listStates } from '../api/state-pages.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { policyOption } from '../policy/policy-option.js';
import { stateLine } from '../render/state-line.js';
import { stateText } from '../render/state-text.js';
import { hasStateFilters, STATE_FILTER_HELP, stateFilters, type StateFilterOptions } from './state-filters.js';

interface StateOptions extends ApiCommandOptions, StateFilterOptions {
  readonly policy?: string;
  readonly limit: string;
}

/**
 * `tokencircuit state <keyId>`: GET /v1/state/:keyId, plus what the core decides on it now.
 * `tokencircuit state [--blocked …]`: GET /v1/state, the tenant's failure states, newest change first.
 */
export function stateCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const command = withApiOptions(
    program
      .command('state')
      .description(
        "list failure states (--blocked: what stops agents now), or show one key's state (exit 1 when there is none)",
      )
      .argument('[keyId]', 'the key id, as printed in artifacts (quote it: it contains "|")'),
  ).option(
    '--policy <file>',
    'policy for the "decision" line (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)',
  );
  for (const [flag, description] of STATE_FILTER_HELP) command.option(flag, description);
  command
    .option('--limit <n>', 'list at most this many states (pages are followed)', '100')
    .action(async (keyId: string | undefined, options: StateOptions) => {
      const out = new Output(io, options.json === true);
      if (keyId === undefined) {
        await list(out, io, options);
        done(EXIT.ok);
        return;
      }
      if (hasStateFilters(options))
        throw usageError('a key id and listing options (--blocked, --principal, …): choose one');
      const policy = policyOption(options.policy, io.env, io.cwd);
      const record = await apiClientOf(options, io).getJson<FailureStateRecord>(
        `/v1/state/${encodeURIComponent(keyId)}`,
      );
      out.record(record);
      const note =
        options.policy || io.env.TOKENCIRCUIT_POLICY_FILE
          ? '(under the given policy)'
          : '(under the RFC default policy)';
      out.text(...stateText(record.state, createGovernance(policy).decide(record.state), note, out.c));
      done(EXIT.ok);
    });
}

async function list(out: Output, io: CliIo, options: StateOptions): Promise<void> {
  const limit = Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) throw usageError(`--limit: "${options.limit}" is not a positive integer`);
  const items = await listStates(apiClientOf(options, io), stateFilters(options), limit);
  for (const item of items) {
    out.record(item);
    out.text(stateLine(item, out.c));
  }
  out.note(`${items.length} failure state(s)${items.length === limit ? ` (--limit ${limit} reached)` : ''}`);
}
