import type { Command } from 'commander';
import { apiClientOf, withApiOptions, type ApiCommandOptions } from '../api/api-options.js';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { openBrowser } from './open-browser.js';

interface DashboardOptions extends ApiCommandOptions {
  readonly open?: boolean;
  readonly printUrl?: boolean;
}

interface LoginToken {
  readonly tenant: string;
  readonly path: string;
  readonly expiresAt: string;
}

/**
 * `tokencircuit dashboard`: asks the API for a one-time login link (POST /v1/dashboard/login-tokens
 * with the API key) and prints it, or opens it. The link signs the browser in once and expires in
 * minutes; the API key itself never goes into a URL.
 */
export function dashboardCommand(
  program: Command,
  io: CliIo,
  done: (code: ExitCode) => void,
  open: (url: string) => Promise<boolean> = openBrowser,
): void {
  withApiOptions(
    program
      .command('dashboard')
      .description('print (or --open) a one-time sign-in link to the fleet dashboard')
      .option('--open', 'open the link in the default browser')
      .option('--print-url', 'print only the link (for scripts)'),
  ).action(async (options: DashboardOptions) => {
    const client = apiClientOf(options, io);
    const login = await client.postJson<LoginToken>('/v1/dashboard/login-tokens', {});
    const url = `${client.target.url}${login.path}`;
    if (options.printUrl) {
      io.stdout.write(`${url}\n`);
      done(EXIT.ok);
      return;
    }
    const out = new Output(io, options.json === true);
    if (options.json) {
      out.record({ url, tenant: login.tenant, expiresAt: login.expiresAt });
    } else {
      out.text(
        `Dashboard of tenant ${login.tenant}: open this one-time link (valid until ${login.expiresAt}, once):`,
        `  ${url}`,
      );
    }
    if (options.open && !(await open(url))) {
      io.stderr.write('tokencircuit: could not start a browser; open the link above yourself\n');
    }
    done(EXIT.ok);
  });
}
