import { readFile } from 'node:fs/promises';

const MIB = 2 ** 20;

/** Peak resident set of this process so far, in MiB (getrusage: ru_maxrss, reported in KiB). */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Samples this process' RSS while a phase runs: the process-wide peak also holds the generated trace
 * and earlier phases, the sampled peak shows what the phase itself needed on top.
 */
export function sampleRss(intervalMs = 100): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss()) / MIB;
    },
  };
}

/** Current and peak RSS of another process from /proc (Linux only; null where /proc cannot tell). */
export async function processRssMiB(pid: number): Promise<{ rss: number; peak: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kib('VmRSS');
    const peak = kib('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rss: rss / 1024, peak: peak / 1024 } : null;
  } catch {
    return null;
  }
}
