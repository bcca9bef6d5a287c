import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** Linux reports process CPU in clock ticks: 100 per second (USER_HZ) on every mainstream build. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  readonly comm: string;
  /** utime + stime of the process (all its threads). */
  readonly own: number;
  /** cutime + cstime: children it has reaped, e.g. Postgres backends that exited. */
  readonly reaped: number;
}

async function statOf(pid: string | number): Promise<ProcStat | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // comm is parenthesised and may hold spaces: count the fields from the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]); // n as numbered in proc(5)
    return {
      comm: stat.slice(stat.indexOf('(') + 1, close),
      own: field(14) + field(15),
      reaped: field(16) + field(17),
    };
  } catch {
    return null; // not Linux, or the process ended while we looked
  }
}

/**
 * CPU seconds used so far by every process named `comm` (all Postgres backends and the postmaster),
 * reaped children included so backends that exit mid-phase still count. null without /proc.
 */
export async function cpuSecondsOfCommand(comm: string): Promise<number | null> {
  const pids = await readdir('/proc').catch(() => null);
  if (!pids) return null;
  const stats = (await Promise.all(pids.filter((p) => /^\d+$/.test(p)).map(statOf))).filter((s) => s?.comm === comm);
  if (stats.length === 0) return null;
  return stats.reduce((ticks, s) => ticks + s!.own + s!.reaped, 0) / TICKS_PER_SECOND;
}

/** CPU seconds used so far by one process (all its threads, e.g. the Kafka JVM). */
export async function cpuSecondsOfPid(pid: number): Promise<number | null> {
  const stat = await statOf(pid);
  return stat ? stat.own / TICKS_PER_SECOND : null;
}

/** CPU seconds a phase cost each side: this process, Postgres, the broker (null where unreadable). */
export async function cpuSnapshot(brokerPid: number | null, services: Readonly<Record<string, number>> = {}) {
  const usage = process.cpuUsage();
  const own: Record<string, number | null> = {};
  for (const [name, pid] of Object.entries(services)) own[name] = await cpuSecondsOfPid(pid);
  return {
    node: (usage.user + usage.system) / 1e6,
    postgres: await cpuSecondsOfCommand('postgres'),
    kafka: brokerPid === null ? null : await cpuSecondsOfPid(brokerPid),
    /** Services run as processes of their own, by name. */
    services: own,
  };
}
export type CpuSnapshot = Awaited<ReturnType<typeof cpuSnapshot>>;

/** "node 12.3 s, postgres 20.1 s, kafka 3.2 s" between two snapshots, with µs per event. */
export function cpuLine(from: CpuSnapshot, to: CpuSnapshot, events: number): string {
  const part = (name: string, a: number | null, b: number | null) =>
    a === null || b === null
      ? `${name} n/a`
      : `${name} ${(b - a).toFixed(1)} s (${fmtUs(((b - a) * 1e6) / events)} µs/event)`;
  return [
    part('this process', from.node, to.node),
    ...Object.keys(from.services).map((name) => part(name, from.services[name] ?? null, to.services[name] ?? null)),
    part('postgres', from.postgres, to.postgres),
    part('kafka broker', from.kafka, to.kafka),
  ].join(', ');
}

/** CPU seconds of every side together between two snapshots (a side that could not be read counts 0). */
export function cpuSecondsBetween(from: CpuSnapshot, to: CpuSnapshot): number {
  const part = (a: number | null, b: number | null) => (a === null || b === null ? 0 : b - a);
  return (
    part(from.node, to.node) +
    Object.keys(from.services).reduce(
      (sum, name) => sum + part(from.services[name] ?? null, to.services[name] ?? null),
      0,
    ) +
    part(from.postgres, to.postgres) +
    part(from.kafka, to.kafka)
  );
}

const fmtUs = (us: number) => us.toFixed(0);

/**
 * CPU time of one process so far, in ms, from /proc/<pid>/schedstat (nanoseconds on CPU, read synchronously so it can
 * bracket a single statement of a Postgres backend); 0 without /proc.
 */
export function schedstatCpuMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}
