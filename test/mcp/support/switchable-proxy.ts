import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the backend API that a spec can take down and bring back on the same port: the
 * gateway sees "backend unreachable" (connection refused) exactly as when the API is down, while the real
 * backend keeps running behind it.
 */
export class SwitchableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(targetUrl: string): Promise<SwitchableProxy> {
    const url = new URL(targetUrl);
    const proxy = new SwitchableProxy({ host: url.hostname, port: Number(url.port) });
    proxy.port = await proxy.listen(0);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get up(): boolean {
    return this.server !== null;
  }

  /** Refuses every connection from now on and cuts the open ones. */
  async down(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections again, on the same port. */
  async back(): Promise<void> {
    if (this.server === null) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.down();
  }

  private async listen(port: number): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    return (server.address() as { port: number }).port;
  }
}
