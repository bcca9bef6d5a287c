import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@tokencircuit/testing';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One service started as it is deployed: its own Node process, from its apps/<name>/src/main.ts. */
export class ServiceProcess {
  private stderr = '';

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4_000);
    });
  }

  /** Starts apps/<app>/src/main.ts with `env` plus the HTTP port variable, and waits for /health/ready. */
  static async start(app: string, portVariable: string, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
    const port = await freePort();
    // BENCH_SERVICE_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the services as deployed.
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', `apps/${app}/src/main.ts`], {
      cwd: ROOT,
      env: { ...env, [portVariable]: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const service = new ServiceProcess(app, child, port);
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${app} exited ${child.exitCode}: ${service.stderr}`);
        const response = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null);
        return response?.ok ?? false;
      },
      { maxWait: 60_000, interval: 200, name: `${app} ready on port ${port}` },
    );
    return service;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Count and mean of a histogram from the service's /metrics text (summed over its label sets). */
  async histogramMean(name: string): Promise<{ count: number; mean: number }> {
    const text = await (await fetch(`http://127.0.0.1:${this.port}/metrics`)).text();
    const total = (suffix: string) =>
      text
        .split('\n')
        .filter((line) => line.startsWith(`${name}${suffix} `) || line.startsWith(`${name}${suffix}{`))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    const count = total('_count');
    return { count, mean: count === 0 ? 0 : total('_sum') / count };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exited;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
