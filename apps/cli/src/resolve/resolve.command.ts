import type { Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { RESOLVE_KINDS, resolutionBody, type ResolutionBody } from './resolution-body.js';
import { resolutionHelp } from './resolution-help.js';

interface ResolveOptions extends ApiCommandOptions {
  readonly by?: string;
  readonly reason?: string;
  readonly as?: string;
}

/**
 * `tokencircuit ack KEY` and `tokencircuit resolve KEY`: POST /v1/resolutions, the same operator action as the
 * dashboard's. The decision service records the episode's acknowledged or resolved step from it, which is what
 * a notifier turns into PagerDuty's acknowledge or resolve. No such key (or another tenant's): exit 1.
 */
export function ackCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withOperatorOptions(
    program
      .command('ack')
      .description("acknowledge a key's open episode (on-call has it); exit 1 when there is no such key")
      .argument('<keyId>', 'the key id, as printed in artifacts (quote it: it contains "|")'),
  ).action((keyId: string, options: ResolveOptions) =>
    send(io, options, resolutionBody({ ...options, keyId, resolution: 'acknowledged' }, io.env), done),
  );
}

export function resolveCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  withOperatorOptions(
    program
      .command('resolve')
      .description(
        'resolve a key: its episode ends; what agents may do next follows from --as; exit 1 when there is no such key, 2 when --as does not apply to it',
      )
      .argument('<keyId>', 'the key id, as printed in artifacts (quote it: it contains "|")'),
  )
    .option(`--as <kind>`, `what the operator established: ${RESOLVE_KINDS.join(', ')} (see below)`, 'reset')
    .addHelpText('after', resolutionHelp())
    .action((keyId: string, options: ResolveOptions) =>
      send(io, options, resolutionBody({ ...options, keyId, resolution: options.as ?? 'reset' }, io.env), done),
    );
}

const withOperatorOptions = (command: Command): Command =>
  withApiOptions(command)
    .option('--by <who>', 'who acts, for the audit trail (default: $TOKENCIRCUIT_OPERATOR, else <login>@cli)')
    .option('--reason <text>', 'why, for the audit trail');

async function send(
  io: CliIo,
  options: ResolveOptions,
  body: ResolutionBody,
  done: (code: ExitCode) => void,
): Promise<void> {
  const out = new Output(io, options.json === true);
  const answer = await apiClientOf(options, io).postJson<{ id: string }>('/v1/resolutions', body);
  out.record({ id: answer.id, ...body });
  const verb = body.resolution === 'acknowledged' ? 'acknowledged' : `resolved (${body.resolution})`;
  out.text(`${out.c.green(verb)} ${body.keyId} by ${body.by} · event ${answer.id}`);
  out.note('accepted: the projector applies it in order; the episode step follows from the decision service');
  done(EXIT.ok);
}
