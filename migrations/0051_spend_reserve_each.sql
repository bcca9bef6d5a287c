-- Reservations in batches (issue 31, docs/budgets.md "Batches"). A run's first calls reserve in one statement each
-- (reserveAtOnceSql), and every such statement holds a row lock on a line or lease row that all of a tenant's new
-- runs share until it commits: concurrent first calls queued one commit at a time. An API process now sends the
-- statements that arrive while one is in flight together, in one transaction: this function runs each in a
-- subtransaction of its own, so a statement that refuses (or meets a deadlock) leaves nothing behind and the others
-- stand, and all of them pay one commit. Each statement's rows come back as a JSON array, a failure as its message
-- and SQLSTATE. It runs with its caller's rights and row-level security (SECURITY INVOKER): it can do nothing the
-- caller could not send itself.
CREATE OR REPLACE FUNCTION tokencircuit_spend_reserve_each(statements text[])
RETURNS TABLE (i int, result jsonb, failure text, failure_code text)
LANGUAGE plpgsql SECURITY INVOKER AS $$
DECLARE
  k int;
  rec record;
  acc jsonb;
BEGIN
  FOR k IN 1 .. coalesce(array_length(statements, 1), 0) LOOP
    BEGIN
      acc := '[]'::jsonb;
      FOR rec IN EXECUTE statements[k] LOOP
        acc := acc || jsonb_build_array(to_jsonb(rec));
      END LOOP;
      i := k; result := acc; failure := NULL; failure_code := NULL;
      RETURN NEXT;
    EXCEPTION WHEN OTHERS THEN
      i := k; result := NULL; failure := SQLERRM; failure_code := SQLSTATE;
      RETURN NEXT;
    END;
  END LOOP;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION tokencircuit_spend_reserve_each(text[]) FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tokencircuit_api') THEN
    GRANT EXECUTE ON FUNCTION tokencircuit_spend_reserve_each(text[]) TO tokencircuit_api;
  END IF;
END
$$;
