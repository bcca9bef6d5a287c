import cliProgress from 'cli-progress';
import type { Output } from './output.js';

/** A progress bar on stderr for a person at a terminal; a no-op in --json mode or when piped. */
export interface Progress {
  tick(by?: number): void;
  total(total: number): void;
  stop(): void;
}

const SILENT: Progress = { tick: () => undefined, total: () => undefined, stop: () => undefined };

export function progressBar(out: Output, label: string, total: number): Progress {
  if (!out.interactive) return SILENT;
  const bar = new cliProgress.SingleBar(
    { stream: out.stderr, format: `${label} [{bar}] {value}/{total}`, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    tick: (by = 1) => bar.increment(by),
    total: (value) => bar.setTotal(value),
    stop: () => bar.stop(),
  };
}
