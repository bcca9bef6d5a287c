import os from 'node:os';
import { referenceLine } from './reference-speed.js';

/**
 * One line naming the machine a figure came from; the load average matters on a shared host, and the reference
 * workload's speed (reference-speed.ts) tells a slower day of the same VM from a slower change.
 */
export function machineLine(): string {
  const cpus = os.cpus();
  const gib = (os.totalmem() / 2 ** 30).toFixed(1);
  return `node ${process.version}, ${cpus.length} logical CPUs (${cpus[0]?.model.trim() ?? 'unknown cpu'}), ${gib} GiB RAM, ${loadLine()}, ${referenceLine()}`;
}

/** "load average 1.2 0.9 0.7" as `uptime` shows it (1, 5 and 15 minutes). */
export function loadLine(): string {
  return `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}
