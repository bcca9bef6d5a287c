// Usage: node port-free.mjs PORT...  → exit 0 when every port can be bound on 127.0.0.1, else exit 1 naming it.
// Binding (not connecting) is the honest test: it also catches listeners that refuse or ignore connections.
import { createServer } from 'node:net';

function canBind(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error) => resolve(error.code ?? String(error)));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(null)));
  });
}

const ports = process.argv.slice(2).map(Number);
if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
  console.error(`port-free.mjs: expected TCP ports 1-65535, got: ${process.argv.slice(2).join(' ') || '(none)'}`);
  process.exit(2);
}
for (const port of ports) {
  const problem = await canBind(port);
  if (problem) {
    console.error(`port ${port} on 127.0.0.1 is not free (${problem})`);
    process.exit(1);
  }
}
