import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';

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
  /** Bound on what an attacker minting tokens with a valid key can make us hold. */
  readonly maxEntries: number;
}

export const DEFAULT_SESSION_SETTINGS: DashboardSessionSettings = {
  loginTokenTtlMs: 5 * 60_000,
  idleTtlMs: 60 * 60_000,
  absoluteTtlMs: 12 * 60 * 60_000,
  maxEntries: 10_000,
};

interface SessionEntry {
  readonly tenant: string;
  readonly csrfToken: string;
  readonly createdAt: number;
  lastUsedAt: number;
}

interface LoginEntry {
  readonly tenant: string;
  readonly expiresAt: number;
}

const secret = (): string => randomBytes(32).toString('base64url');
// Only digests are kept, so a heap dump or a log of this map yields no usable session or login token.
const digest = (token: string): string => createHash('sha256').update(token, 'utf8').digest('base64url');

/**
 * Server-side dashboard sessions and one-time login tokens, in this API process's memory: a restart
 * signs everyone out, and behind several API instances a login link works on the instance that
 * minted it (sticky routing), which is the documented limit of this first version.
 */
export class DashboardSessions {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly logins = new Map<string, LoginEntry>();

  constructor(
    private readonly clock: Clock,
    readonly settings: DashboardSessionSettings = DEFAULT_SESSION_SETTINGS,
  ) {}

  /** A single-use, short-lived token that signs its bearer in as `tenant`. */
  mintLoginToken(tenant: string): { token: string; expiresAt: Date } {
    const now = this.now();
    this.sweep(now);
    this.evictOldest(this.logins);
    const token = secret();
    const expiresAt = now + this.settings.loginTokenTtlMs;
    this.logins.set(digest(token), { tenant, expiresAt });
    return { token, expiresAt: new Date(expiresAt) };
  }

  /** Consumes a login token (whatever the outcome) and opens a session; null when unknown, used or expired. */
  redeemLoginToken(token: string): { sessionId: string; session: DashboardSession } | null {
    const id = digest(token);
    const login = this.logins.get(id);
    this.logins.delete(id);
    if (!login || login.expiresAt <= this.now()) return null;
    return this.open(login.tenant);
  }

  /** Opens a session for a tenant whose API key was just checked (the sign-in form). */
  open(tenant: string): { sessionId: string; session: DashboardSession } {
    const now = this.now();
    this.sweep(now);
    this.evictOldest(this.sessions);
    const sessionId = secret();
    const entry: SessionEntry = { tenant, csrfToken: secret(), createdAt: now, lastUsedAt: now };
    this.sessions.set(digest(sessionId), entry);
    return { sessionId, session: this.view(entry) };
  }

  /** The live session of this id, its idle timer restarted; null when unknown or expired. */
  touch(sessionId: string): DashboardSession | null {
    const id = digest(sessionId);
    const entry = this.sessions.get(id);
    if (!entry) return null;
    const now = this.now();
    if (this.expiry(entry) <= now) {
      this.sessions.delete(id);
      return null;
    }
    entry.lastUsedAt = now;
    return this.view(entry);
  }

  close(sessionId: string): void {
    this.sessions.delete(digest(sessionId));
  }

  get size(): { sessions: number; loginTokens: number } {
    return { sessions: this.sessions.size, loginTokens: this.logins.size };
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

  private sweep(now: number): void {
    for (const [id, login] of this.logins) if (login.expiresAt <= now) this.logins.delete(id);
    for (const [id, entry] of this.sessions) if (this.expiry(entry) <= now) this.sessions.delete(id);
  }

  private evictOldest(map: Map<string, unknown>): void {
    // Maps iterate in insertion order: the first key is the oldest entry.
    while (map.size >= this.settings.maxEntries) map.delete(map.keys().next().value!);
  }
}

/** Constant-time comparison of a presented CSRF token with the session's. */
export function csrfTokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
