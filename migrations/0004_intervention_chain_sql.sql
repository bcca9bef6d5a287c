-- The hash chain, verifiable from SQL alone (compliance queries straight from Postgres, no
-- TypeScript needed): the same canonical JSON (RFC 8785 style) and the same sha256 as
-- libs/storage/src/hash-chain.ts. An int test checks both sides agree on random JSON.

-- A string's UTF-16 code units: JCS orders object members by them, which differs from code point
-- (COLLATE "C") order once characters beyond U+FFFF meet characters from U+E000 up.
CREATE OR REPLACE FUNCTION tokencircuit_utf16_units(value text) RETURNS int[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(u.unit ORDER BY i, u.part), '{}'::int[])
    FROM generate_series(1, length(value)) AS i
   CROSS JOIN LATERAL (SELECT ascii(substr(value, i, 1)) AS cp) AS c
   CROSS JOIN LATERAL (VALUES
       (0, CASE WHEN c.cp > 65535 THEN 55296 + ((c.cp - 65536) >> 10) ELSE c.cp END),
       (1, CASE WHEN c.cp > 65535 THEN 56320 + ((c.cp - 65536) & 1023) END)) AS u(part, unit)
   WHERE u.unit IS NOT NULL
$$;
--> statement-breakpoint
-- ECMAScript Number::toString of the double nearest to a JSON number (what JCS prescribes): the
-- shortest round-trip digits come from float8 output (extra_float_digits >= 1 selects them), and
-- are then laid out by the ECMAScript rules (plain up to 21 integer digits, down to 1e-6).
CREATE OR REPLACE FUNCTION tokencircuit_canonical_number(value numeric) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET extra_float_digits = 1 AS $$
DECLARE
  x float8 := value::float8;
  shortest text;
  mantissa text;
  digits text;
  n int;
  k int;
  e int;
BEGIN
  IF x = 0 THEN
    RETURN '0';
  END IF;
  shortest := abs(x)::text;
  IF position('e' IN shortest) > 0 THEN
    mantissa := split_part(shortest, 'e', 1);
    n := split_part(shortest, 'e', 2)::int + 1;
    digits := replace(mantissa, '.', '');
  ELSIF position('.' IN shortest) > 0 AND split_part(shortest, '.', 1) = '0' THEN
    digits := ltrim(split_part(shortest, '.', 2), '0');
    n := length(digits) - length(split_part(shortest, '.', 2));
  ELSE
    digits := replace(shortest, '.', '');
    n := length(split_part(shortest, '.', 1));
  END IF;
  digits := rtrim(digits, '0');
  k := length(digits);
  RETURN CASE WHEN x < 0 THEN '-' ELSE '' END ||
    CASE
      WHEN k <= n AND n <= 21 THEN digits || repeat('0', n - k)
      WHEN 0 < n AND n <= 21 THEN left(digits, n) || '.' || substr(digits, n + 1)
      WHEN -6 < n AND n <= 0 THEN '0.' || repeat('0', -n) || digits
      ELSE
        CASE WHEN k = 1 THEN digits ELSE left(digits, 1) || '.' || substr(digits, 2) END
        || 'e' || CASE WHEN n - 1 >= 0 THEN '+' ELSE '-' END || abs(n - 1)::text
    END;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tokencircuit_canonical_json(value jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  result text;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'object' THEN
      SELECT '{' || coalesce(string_agg(to_json(m.key)::text || ':' || tokencircuit_canonical_json(m.member), ','
                                        ORDER BY tokencircuit_utf16_units(m.key)), '') || '}'
        INTO result FROM jsonb_each(value) AS m(key, member);
    WHEN 'array' THEN
      SELECT '[' || coalesce(string_agg(tokencircuit_canonical_json(a.item), ',' ORDER BY a.position), '') || ']'
        INTO result FROM jsonb_array_elements(value) WITH ORDINALITY AS a(item, position);
    WHEN 'string' THEN
      result := to_json(value #>> '{}')::text;
    WHEN 'number' THEN
      result := tokencircuit_canonical_number((value #>> '{}')::numeric);
    ELSE
      result := value::text; -- true, false, null
  END CASE;
  RETURN result;
END
$$;
--> statement-breakpoint
-- chainDocument() of hash-chain.ts, built from a stored row.
CREATE OR REPLACE FUNCTION tokencircuit_intervention_document(row_value interventions) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT tokencircuit_canonical_json(jsonb_build_object(
    'id', row_value.id,
    'tenant', row_value.tenant,
    'run', row_value.run,
    'agent', row_value.agent,
    'level', row_value.level,
    'failure_class', row_value.failure_class,
    'key_id', row_value.key_id,
    'tool_name', row_value.tool_name,
    'resource_class', row_value.resource_class,
    'auth_scope', row_value.auth_scope,
    'principal', row_value.principal,
    'resource_id', row_value.resource_id,
    'next_action', row_value.next_action,
    'artifact', row_value.artifact,
    'policy_version', row_value.policy_version,
    'state_version', row_value.state_version,
    'causing_event_ids', to_jsonb(row_value.causing_event_ids),
    'issued_at', to_char(row_value.issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'prev_hash', row_value.prev_hash))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tokencircuit_intervention_hash(row_value interventions) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(tokencircuit_intervention_document(row_value), 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- verifyChain() in SQL: SELECT * FROM tokencircuit_verify_intervention_chain('tenant-a');
-- Runs with the caller's rights, so under the audit role it sees (and verifies) one tenant only.
CREATE OR REPLACE FUNCTION tokencircuit_verify_intervention_chain(chain_tenant text)
RETURNS TABLE (ok boolean, checked bigint, first_broken_seq bigint, reason text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  r interventions;
  previous_hash text := NULL;
  verified bigint := 0;
  recomputed text;
BEGIN
  FOR r IN SELECT * FROM interventions WHERE tenant = chain_tenant ORDER BY seq LOOP
    IF r.prev_hash IS DISTINCT FROM previous_hash THEN
      RETURN QUERY SELECT false, verified, r.seq,
        format('seq %s links to %s but the previous row''s hash is %s (a row was removed, inserted or reordered)',
               r.seq, coalesce(r.prev_hash, 'genesis'), coalesce(previous_hash, 'genesis'));
      RETURN;
    END IF;
    recomputed := tokencircuit_intervention_hash(r);
    IF r.hash IS DISTINCT FROM recomputed THEN
      RETURN QUERY SELECT false, verified, r.seq,
        format('seq %s content does not match its hash (stored %s, recomputed %s)', r.seq, r.hash, recomputed);
      RETURN;
    END IF;
    previous_hash := r.hash;
    verified := verified + 1;
  END LOOP;
  RETURN QUERY SELECT true, verified, NULL::bigint, NULL::text;
END
$$;
