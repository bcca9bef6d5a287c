// Two-key advisory locks (pg_advisory_lock(int4, int4)) keep our keys apart from any other
// application sharing the server's advisory lock space; the first key says what is locked.
/** Held (session-level) while migrations run, so concurrent migrate() calls on one database queue up. */
export const MIGRATION_LOCK = [0x74630001, 0] as const;
/** First key of the per-tenant intervention-chain lock; the second is hashtext(tenant). */
export const INTERVENTION_CHAIN_LOCK_CLASS = 0x74630002;
/** First key of the per-key episode lifecycle lock; the second is hashtext(key_id). */
export const EPISODE_LOCK_CLASS = 0x74630003;
