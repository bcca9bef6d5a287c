import type { Command } from 'commander';
import type { CliIo } from '../io/cli-io.js';
import { ApiClient } from './api-client.js';
import { apiTarget } from './api-target.js';

export interface ApiCommandOptions {
  readonly url?: string;
  readonly apiKey?: string;
  readonly dataDir?: string;
  readonly json?: boolean;
}

/** The options every command that talks to a running instance takes. */
export function withApiOptions(command: Command): Command {
  return command
    .option('--url <url>', 'API base URL (default: $TOKENCIRCUIT_URL, else http://127.0.0.1:8080)')
    .option('--api-key <key>', 'API key (default: $TOKENCIRCUIT_API_KEY, else the first key in <data-dir>/api-keys)')
    .option(
      '--data-dir <dir>',
      'where `npm start` keeps its data and api-keys (default: $TOKENCIRCUIT_DATA_DIR, else ./.data)',
    )
    .option('--json', 'one JSON object per line');
}

export const apiClientOf = (options: ApiCommandOptions, io: CliIo): ApiClient =>
  new ApiClient(apiTarget(options, io.env, io.cwd), io.signal);
