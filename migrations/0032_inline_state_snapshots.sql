-- A failure state and an outbox snapshot are 1.3-1.6 kB of JSON; with their row's other columns about a
-- third of the rows crossed the default 2 kB toast_tuple_target, so Postgres ran pglz over them on every
-- write (and again on every read of the state or claim of the snapshot): a quarter of the projector's
-- statement CPU (bench:pipeline, backend CPU of saveFold 42 -> 33 µs/event). Rows stay uncompressed and
-- inline up to a page; a larger state (long receipt lists) is still compressed and toasted as before.
-- toast_tuple_target, not lz4: it is plain Postgres, also in the embedded PGlite build.
ALTER TABLE failure_state SET (toast_tuple_target = 8160);
--> statement-breakpoint
ALTER TABLE decision_outbox SET (toast_tuple_target = 8160);
