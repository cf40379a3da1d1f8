#!/usr/bin/env bash
# Everything CI runs, in order: typecheck, lint, unit tests, integration tests on PGlite and (when
# DATABASE_URL is set) on PostgreSQL, a check that their logs hold no secrets, the production build, and
# the browser tests.
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
step "integration tests on PGlite"
TEST_DATABASE_URL= npx vitest run --project integration
if [ -n "${DATABASE_URL:-}" ]; then
  step "integration tests on PostgreSQL"
  TEST_DATABASE_URL="$DATABASE_URL" npx vitest run --project integration
else
  echo "(DATABASE_URL is not set: skipping the PostgreSQL run; .ci/run sets it)"
fi
step "logs of the integration runs hold no secrets"
node scripts/check-logs.mjs "$ATOMIZE_LOG_CAPTURE_DIR"
step "build"
npm run --silent build
step "end-to-end tests in Chromium"
npx playwright test
