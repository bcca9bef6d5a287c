import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { TokenBuckets } from '../quota/token-bucket.js';

/** A signed-in dashboard user: a tenant, and the CSRF token its state-changing requests must echo. */
export interface DashboardSession {
  readonly tenant: string;
  readonly csrfToken: string;
  readonly expiresAt: number;
}

export interface DashboardSessionSettings {
  /** How long a printed login link stays valid; it is also single-use. */
  readonly loginTokenTtlMs: number;
  /** A session ends this long after it was last used. */
  readonly idleTtlMs: number;
  /** And at the latest this long after sign-in, however busy. */
  readonly absoluteTtlMs: number;
  /**
   * Sessions one tenant may hold; its next sign-in ends its own oldest. Per tenant, so a tenant flooding
   * sign-ins signs out only its own users (one shared bound let any tenant evict every other's, issue 28).
   */
  readonly sessionsPerTenant: number;
  /** Unredeemed login links one tenant may hold; minting one more drops its own oldest. */
  readonly loginTokensPerTenant: number;
  /** Sign-ins (form or login link minted) per tenant: a sustained rate per minute and a burst. */
  readonly signInsPerMinute: number;
  readonly signInBurst: number;
}

export const DEFAULT_SESSION_SETTINGS: DashboardSessionSettings = {
  loginTokenTtlMs: 5 * 60_000,
  idleTtlMs: 60 * 60_000,
  absoluteTtlMs: 12 * 60 * 60_000,
  sessionsPerTenant: 1_000,
  loginTokensPerTenant: 100,
  signInsPerMinute: 30,
  signInBurst: 30,
};

interface SessionEntry {
  readonly tenant: string;
  readonly csrfToken: string;
  readonly createdAt: number;
  lastUsedAt: number;
  /** Called when the session ends (sign-out, expiry, eviction): its live streams close. */
  readonly onEnd: Set<() => void>;
}

interface LoginEntry {
  readonly tenant: string;
  readonly expiresAt: number;
}

/** What a sign-in gets: the opened session, or the wait until the tenant may sign in again. */
export type SignIn<T> = T | { readonly refused: true; readonly retryAfterMs: number };

export const refusedSignIn = <T extends object>(
  outcome: SignIn<T>,
): outcome is { readonly refused: true; readonly retryAfterMs: number } => 'refused' in outcome;

const secret = (): string => randomBytes(32).toString('base64url');
// Only digests are kept, so a heap dump or a log of this map yields no usable session or login token.
const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('base64url');

/** One map per tenant, each in insertion order (the first key is the tenant's oldest entry). */
class PerTenant<E extends { readonly tenant: string }> {
  private readonly byTenant = new Map<string, Map<string, E>>();
  private readonly tenantOf = new Map<string, string>();

  get(id: string): E | undefined {
    const tenant = this.tenantOf.get(id);
    return tenant === undefined ? undefined : this.byTenant.get(tenant)?.get(id);
  }

  /** Adds an entry, first dropping the tenant's oldest until it holds fewer than `cap`; returns what was dropped. */
  add(id: string, entry: E, cap: number): E[] {
    const own = this.byTenant.get(entry.tenant) ?? new Map<string, E>();
    this.byTenant.set(entry.tenant, own);
    const dropped: E[] = [];
    for (const [oldest, old] of own) {
      if (own.size < cap) break;
      this.delete(oldest);
      dropped.push(old);
    }
    own.set(id, entry);
    this.tenantOf.set(id, entry.tenant);
    return dropped;
  }

  delete(id: string): E | undefined {
    const tenant = this.tenantOf.get(id);
    if (tenant === undefined) return undefined;
    this.tenantOf.delete(id);
    const own = this.byTenant.get(tenant);
    const entry = own?.get(id);
    own?.delete(id);
    if (own?.size === 0) this.byTenant.delete(tenant);
    return entry;
  }

  /** Drops the tenant's entries `expired` says are over; returns them. */
  sweep(tenant: string, expired: (entry: E) => boolean): E[] {
    const dropped: E[] = [];
    for (const [id, entry] of this.byTenant.get(tenant) ?? []) {
      if (!expired(entry)) continue;
      this.delete(id);
      dropped.push(entry);
    }
    return dropped;
  }

  get size(): number {
    return this.tenantOf.size;
  }
}

/**
 * Server-side dashboard sessions and one-time login tokens, in this API process's memory: a restart
 * signs everyone out, and behind several API instances a login link works on the instance that
 * minted it (sticky routing), which is the documented limit of this first version. Everything is held
 * and bounded per tenant: memory is at most (sessions + login tokens per tenant) × configured tenants.
 */
export class DashboardSessions {
  private readonly sessions = new PerTenant<SessionEntry>();
  private readonly logins = new PerTenant<LoginEntry>();
  private readonly signIns: TokenBuckets;

  constructor(
    private readonly clock: Clock,
    readonly settings: DashboardSessionSettings = DEFAULT_SESSION_SETTINGS,
  ) {
    this.signIns = new TokenBuckets({ perSecond: settings.signInsPerMinute / 60, burst: settings.signInBurst });
  }

  /** A single-use, short-lived token that signs its bearer in as `tenant`; charged as a sign-in. */
  mintLoginToken(tenant: string): SignIn<{ token: string; expiresAt: Date }> {
    const now = this.now();
    const take = this.signIns.take(tenant, 1, now);
    if (!take.allowed) return { refused: true, retryAfterMs: take.retryAfterMs };
    this.logins.sweep(tenant, (login) => login.expiresAt <= now);
    const token = secret();
    const expiresAt = now + this.settings.loginTokenTtlMs;
    this.logins.add(digest(token), { tenant, expiresAt }, this.settings.loginTokensPerTenant);
    return { token, expiresAt: new Date(expiresAt) };
  }

  /** Consumes a login token (whatever the outcome) and opens a session; null when unknown, used or expired. */
  redeemLoginToken(token: string): { sessionId: string; session: DashboardSession } | null {
    const login = this.logins.delete(digest(token));
    if (!login || login.expiresAt <= this.now()) return null;
    // The link was charged when it was minted.
    return this.open(login.tenant);
  }

  /** Opens a session for a tenant whose API key was just checked (the sign-in form); charged as a sign-in. */
  signIn(tenant: string): SignIn<{ sessionId: string; session: DashboardSession }> {
    const take = this.signIns.take(tenant, 1, this.now());
    if (!take.allowed) return { refused: true, retryAfterMs: take.retryAfterMs };
    return this.open(tenant);
  }

  /** The live session of this id, its idle timer restarted; null when unknown or expired. */
  touch(sessionId: string): DashboardSession | null {
    const id = digest(sessionId);
    const entry = this.sessions.get(id);
    if (!entry) return null;
    const now = this.now();
    if (this.expiry(entry) <= now) {
      this.end(this.sessions.delete(id));
      return null;
    }
    entry.lastUsedAt = now;
    return this.view(entry);
  }

  /** Whether the session is still live, without restarting its idle timer (a live stream is not a use). */
  isLive(sessionId: string): boolean {
    const id = digest(sessionId);
    const entry = this.sessions.get(id);
    if (!entry) return false;
    if (this.expiry(entry) > this.now()) return true;
    this.end(this.sessions.delete(id));
    return false;
  }

  /**
   * Calls `onEnd` once when this session ends (sign-out, eviction, or found expired); returns the
   * unsubscribe. A session already gone calls it at once.
   */
  onEnd(sessionId: string, onEnd: () => void): () => void {
    const entry = this.sessions.get(digest(sessionId));
    if (!entry) {
      onEnd();
      return () => {};
    }
    entry.onEnd.add(onEnd);
    return () => entry.onEnd.delete(onEnd);
  }

  close(sessionId: string): void {
    this.end(this.sessions.delete(digest(sessionId)));
  }

  get size(): { sessions: number; loginTokens: number } {
    return { sessions: this.sessions.size, loginTokens: this.logins.size };
  }

  private open(tenant: string): { sessionId: string; session: DashboardSession } {
    const now = this.now();
    for (const ended of this.sessions.sweep(tenant, (entry) => this.expiry(entry) <= now)) this.end(ended);
    const sessionId = secret();
    const entry: SessionEntry = { tenant, csrfToken: secret(), createdAt: now, lastUsedAt: now, onEnd: new Set() };
    for (const evicted of this.sessions.add(digest(sessionId), entry, this.settings.sessionsPerTenant)) {
      this.end(evicted);
    }
    return { sessionId, session: this.view(entry) };
  }

  private end(entry: SessionEntry | undefined): void {
    if (!entry) return;
    const listeners = [...entry.onEnd];
    entry.onEnd.clear();
    for (const listener of listeners) listener();
  }

  private view(entry: SessionEntry): DashboardSession {
    return { tenant: entry.tenant, csrfToken: entry.csrfToken, expiresAt: this.expiry(entry) };
  }

  private expiry(entry: SessionEntry): number {
    return Math.min(entry.lastUsedAt + this.settings.idleTtlMs, entry.createdAt + this.settings.absoluteTtlMs);
  }

  private now(): number {
    return this.clock().getTime();
  }
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfTokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
