import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private PostgreSQL cluster that asks every TCP login for a password (scram-sha-256), for the specs that
 * must see a real server refuse a password: the shared test server trusts every local login. Built from the
 * server binaries the machine has (Debian's /usr/lib/postgresql/N/bin); initdb refuses to run as root, so as
 * root the cluster runs as the `postgres` user.
 */
export interface PasswordPostgres {
  /** A URL for `user` with `password` on this cluster's `postgres` database. */
  url(user: string, password: string): string;
  stop(): void;
}

export const PASSWORD_POSTGRES_SUPERUSER = { user: 'postgres', password: 'tc-private-superuser-password' };

/** The server's bin folder, or why there is none. */
export function postgresBinaries(): { bin: string } | { missing: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  return bin === undefined ? { missing: `no initdb under ${root} (Debian's postgresql package)` } : { bin };
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export async function startPasswordPostgres(bin: string): Promise<PasswordPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'tc-password-pg-'));
  chmodSync(folder, 0o777);
  const data = join(folder, 'data');
  const pwfile = join(folder, 'pwfile');
  writeFileSync(pwfile, PASSWORD_POSTGRES_SUPERUSER.password, { mode: 0o644 });
  const port = await freePort();
  const asOwner = (command: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  asOwner('initdb', [
    '-D',
    data,
    '-U',
    PASSWORD_POSTGRES_SUPERUSER.user,
    `--pwfile=${pwfile}`,
    '--auth-host=scram-sha-256',
    '--auth-local=scram-sha-256',
  ]);
  asOwner('pg_ctl', [
    '-D',
    data,
    '-l',
    join(folder, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  return {
    url: (user, password) =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
