import { useEffect, useState } from 'preact/hooks';
import { HttpError } from './api.js';
import type { LiveSignal } from './types.js';

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly data: T }
  | { readonly state: 'error'; readonly error: Error };

/** Loads `load()` again whenever a key changes; keeps the last data on screen while reloading. */
export function useLoaded<T>(load: () => Promise<T>, keys: readonly unknown[]): Loaded<T> {
  const [value, setValue] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setValue({ state: 'ready', data }),
      (error: Error) => current && setValue({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, keys);
  return value;
}

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

/**
 * The tenant's server-sent events. `version` counts changes, so views reload on it; `recent` holds the
 * last signals (newest first) so the page can mark what arrived live.
 */
export function useLive(enabled: boolean): { status: LiveStatus; version: number; recent: LiveSignal[] } {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [version, setVersion] = useState(0);
  const [recent, setRecent] = useState<LiveSignal[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource('/v1/dashboard/live');
    let pending: ReturnType<typeof setTimeout> | null = null;
    // Connected (or connected again): reload once, so a change made between the views' first load and this
    // subscription (or while it was down) is shown, not lost until the next one.
    source.addEventListener('ready', () => {
      setStatus('live');
      setVersion((v) => v + 1);
    });
    source.addEventListener('change', (event) => {
      const signal = JSON.parse((event as MessageEvent<string>).data) as LiveSignal;
      setRecent((list) => [signal, ...list].slice(0, 50));
      // A burst of interventions becomes one reload.
      if (pending === null) {
        pending = setTimeout(() => {
          pending = null;
          setVersion((v) => v + 1);
        }, 250);
      }
    });
    source.onerror = () => setStatus('reconnecting');
    return () => {
      if (pending !== null) clearTimeout(pending);
      source.close();
    };
  }, [enabled]);
  return { status, version, recent };
}

/** The hash route: #/, #/interventions/ID, #/runs/RUN, #/audit. */
export function useRoute(): string[] {
  const read = () =>
    (location.hash.replace(/^#\/?/, '') || '')
      .split('/')
      .filter((part) => part !== '')
      .map((part) => decodeURIComponent(part));
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export const isUnauthenticated = (error: unknown): boolean => error instanceof HttpError && error.status === 401;

/** A re-render every `ms`, so "2 min ago" stays true. */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
