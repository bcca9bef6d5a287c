// Usage: node wait-ready.mjs BROKER TIMEOUT_MS PID
// Exit 0 once the broker answers a metadata request; 1 on timeout; 3 as soon as process PID is gone.
// A metadata answer (not an open port) is the readiness that clients care about.
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const [broker, timeoutArg, pidArg] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg);
const pid = Number(pidArg);
if (!broker || !Number.isFinite(timeoutMs) || !Number.isInteger(pid)) {
  console.error('usage: node wait-ready.mjs BROKER TIMEOUT_MS PID');
  process.exit(2);
}

const alive = () => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const kafka = new Kafka({
  clientId: 'tokencircuit-kafka-launcher',
  brokers: [broker],
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1_000,
  requestTimeout: 2_000,
  retry: { retries: 0 },
});
const deadline = Date.now() + timeoutMs;
let lastError = 'no attempt yet';
while (Date.now() < deadline) {
  if (!alive()) {
    console.error(`broker process ${pid} exited before it answered on ${broker}`);
    process.exit(3);
  }
  const admin = kafka.admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    if (cluster.brokers.length > 0 && cluster.controller !== null) {
      await admin.disconnect();
      process.exit(0);
    }
    lastError = 'metadata names no broker or controller yet';
  } catch (error) {
    lastError = error instanceof Error ? error.message : String(error);
  }
  await admin.disconnect().catch(() => {});
  // Polling interval of a readiness probe, not a wait for a result.
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.error(
  `broker on ${broker} did not answer a metadata request within ${timeoutMs} ms (last error: ${lastError})`,
);
process.exit(1);
