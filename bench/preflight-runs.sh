#!/usr/bin/env bash
# A set of bench:preflight runs as docs/benchmarks.md ("Preflight with spend budgets") reports them: a fresh migrated
# database seeded with --seed, the API alone in its own process (with a spend policy or without), then RUNS runs of
# 10 s at RATE req/s, the first right after the seed. Needs Postgres (PGHOST/PGUSER or the defaults below), psql and
# a broker (KAFKA_BROKERS, default the launcher's 127.0.0.1:19092).
#   bench/preflight-runs.sh <label> <policy file | none> [runs]      RATE=1000 bench/preflight-runs.sh on examples/policy-budgets.json 5
set -euo pipefail
cd "$(dirname "$0")/.."
label=${1:?label}
policy=${2:?policy file or none}
runs=${3:-5}
rate=${RATE:-200}
port=${API_HTTP_PORT:-18080}
pghost=${PGHOST:-127.0.0.1}
pguser=${PGUSER:-postgres}
db="tc_bench_preflight_$$"
key="acme-bench-preflight-key-0123456789"
psql -q -h "$pghost" -U "$pguser" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" postgres
export DATABASE_URL="postgres://$pguser@$pghost:5432/$db"
npm run -s migrate >/dev/null
policy_env=()
[ "$policy" != none ] && policy_env=("TOKENCIRCUIT_POLICY_FILE=$policy")
env "${policy_env[@]}" TOKENCIRCUIT_API_KEYS="acme:$key" KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:19092}" \
  API_HTTP_PORT="$port" API_HTTP_HOST=127.0.0.1 LOG_LEVEL=warn node --import tsx apps/api/src/main.ts >"/tmp/$db-api.log" 2>&1 &
api=$!
cleanup() {
  kill "$api" 2>/dev/null || true
  wait "$api" 2>/dev/null || true
  psql -q -h "$pghost" -U "$pguser" -c "DROP DATABASE IF EXISTS $db" postgres || true
}
trap cleanup EXIT
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.3; done
for run in $(seq 1 "$runs"); do
  seed=()
  [ "$run" = 1 ] && seed=(--seed)
  npx tsx bench/preflight.bench.ts --url "http://127.0.0.1:$port" --key "$key" --tenant acme --rate "$rate" --seconds 10 "${seed[@]}" 2>&1 |
    grep -E '^(latency|from send)' | sed "s/^/[$label $rate req\/s run $run] /"
done
