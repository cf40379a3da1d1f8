#!/usr/bin/env bash
# Everything CI runs, in order: typecheck, lint, unit tests, integration tests on PGlite and (when
# DATABASE_URL is set) on PostgreSQL, side by side, a check that their logs hold no secrets, the
# production build, and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint
step "unit tests"
npx vitest run --project unit
# Every test server logs at debug level here; the "logs" step below greps the whole run for secrets.
ATOMIZE_LOG_CAPTURE_DIR="$(mktemp -d)"
export ATOMIZE_LOG_CAPTURE_DIR
trap 'rm -rf "$ATOMIZE_LOG_CAPTURE_DIR"' EXIT
if [ -n "${DATABASE_URL:-}" ]; then
  # The two passes run side by side, each into its own log, printed once it ends: the PostgreSQL pass
  # waits on the database often enough that together they take about 150 s on two cores, against about
  # 205 s one after the other (issue 11).
  step "integration tests on PGlite and on PostgreSQL, side by side"
  pglite_log="$(mktemp)"
  postgres_log="$(mktemp)"
  trap 'rm -rf "$ATOMIZE_LOG_CAPTURE_DIR" "$pglite_log" "$postgres_log"' EXIT
  TEST_DATABASE_URL= npx vitest run --project integration >"$pglite_log" 2>&1 &
  pglite_pass=$!
  TEST_DATABASE_URL="$DATABASE_URL" npx vitest run --project integration >"$postgres_log" 2>&1 &
  postgres_pass=$!
  failed=0
  wait "$pglite_pass" || failed=1
  step "integration tests on PGlite: their output"
  cat "$pglite_log"
  wait "$postgres_pass" || failed=1
  step "integration tests on PostgreSQL: their output"
  cat "$postgres_log"
  [ "$failed" -eq 0 ] || { echo "integration tests failed (see above)"; exit 1; }
else
  step "integration tests on PGlite"
  TEST_DATABASE_URL= npx vitest run --project integration
  echo "(DATABASE_URL is not set: skipping the PostgreSQL run; .ci/run sets it)"
fi
step "logs of the integration runs hold no secrets"
node scripts/check-logs.mjs "$ATOMIZE_LOG_CAPTURE_DIR"
step "build"
npm run --silent build
step "end-to-end tests in Chromium"
npx playwright test
