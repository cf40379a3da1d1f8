#!/usr/bin/env bash
# Everything CI runs: typecheck, lint, unit tests, integration tests on PGlite and (when DATABASE_URL is
# set) on PostgreSQL, the tests that start the app as a process of its own, the container image built
# and run, a check that their logs hold
# no secrets, the production build, and the browser tests. Steps that do not depend on one another run side by side, each into its own log, printed in full
# when it ends (decision 017): on two cores the run is bound by CPU, and what one step leaves idle
# (typecheck is single-threaded, an integration pass waits on its fakes' timers) another takes.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

logs="$(mktemp -d)"
# Every test server logs at debug level here; the "logs" step below greps the whole run for secrets.
ATOMIZE_LOG_CAPTURE_DIR="$(mktemp -d)"
export ATOMIZE_LOG_CAPTURE_DIR
declare -A pid_of=() name_of=()
# A step still running when the run stops (another one failed) is stopped with it.
cleanup() {
  for pid in "${!name_of[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  rm -rf "$ATOMIZE_LOG_CAPTURE_DIR" "$logs"
}
trap cleanup EXIT
failed=()
started_at=$SECONDS

# start NAME COMMAND...: runs the command in the background into its own log, in a process group of its
# own (so that stopping it stops its workers too).
start() {
  local name=$1
  shift
  setsid "$@" >"$logs/$name.log" 2>&1 &
  pid_of[$name]=$!
  name_of[$!]=$name
  printf '\n== %s: started at %ds\n' "$name" $((SECONDS - started_at))
}

# report NAME RC: prints a finished step's log and remembers a failure.
report() {
  step "$1: ended at $((SECONDS - started_at))s with exit code $2"
  cat "$logs/$1.log"
  [ "$2" -eq 0 ] || failed+=("$1")
}

# finish NAME: waits for one step.
finish() {
  local rc=0
  wait "${pid_of[$1]}" || rc=$?
  unset "name_of[${pid_of[$1]}]"
  report "$1" "$rc"
}

# finish_any NAME...: waits for whichever of these steps ends first; sets `first` to its name.
first=
finish_any() {
  local pids=() pid rc=0 name
  for name in "$@"; do pids+=("${pid_of[$name]}"); done
  wait -n -p pid "${pids[@]}" || rc=$?
  first=${name_of[$pid]}
  unset "name_of[$pid]"
  report "$first" "$rc"
}

# foreground NAME COMMAND...: runs a step with its output as it goes.
foreground() {
  local name=$1 rc=0
  shift
  step "$name: started at $((SECONDS - started_at))s"
  "$@" || rc=$?
  step "$name: ended at $((SECONDS - started_at))s with exit code $rc"
  [ "$rc" -eq 0 ] || failed+=("$name")
}

stop_if_failed() {
  [ "${#failed[@]}" -eq 0 ] && return
  step "failed: ${failed[*]}"
  exit 1
}

# Typecheck, lint and the production build beside the unit tests: tsc uses one core, and nothing the
# tests read is in dist/ (test servers get a client folder of their own, spawned apps the run's bundle).
start typecheck npm run --silent typecheck
start lint npm run --silent lint
start build npm run --silent build
foreground "unit tests" npx vitest run --project unit
finish typecheck
finish lint
stop_if_failed

# The integration passes side by side: the PostgreSQL pass (the *.db and *.pg suites, vitest.config.ts)
# waits on the database and both wait on their fakes' timers. The browser tests start as soon as the
# first pass ends (and the build), beside the other one's last files.
start "integration tests on PGlite" env TEST_DATABASE_URL= npx vitest run --project integration
passes=("integration tests on PGlite")
if [ -n "${DATABASE_URL:-}" ]; then
  start "integration tests on PostgreSQL" env TEST_DATABASE_URL="$DATABASE_URL" npx vitest run --project integration
  passes+=("integration tests on PostgreSQL")
else
  echo "(DATABASE_URL is not set: skipping the PostgreSQL runs; .ci/run sets it)"
fi
finish_any "${passes[@]}"
finish build
stop_if_failed
start "end-to-end tests in Chromium" npx playwright test
# The suites that start the app as a process of its own, in a step of their own beside the browser
# tests and the other pass (which together leave about a core idle: they wait on pages and timers). Each
# waits on what its processes print or answer, under ceilings a loaded machine never reaches, so a slow
# run is slow, not red. PGlite first, then the PostgreSQL-only ones.
# shellcheck disable=SC2016 # expanded by the inner shell
start "process tests" bash -c 'env TEST_DATABASE_URL= npx vitest run --project processes &&
  { [ -z "${DATABASE_URL:-}" ] || env TEST_DATABASE_URL="$DATABASE_URL" npx vitest run --project processes; }' 
# The Dockerfile built and its image run (tests/container/): mostly the image's own build, which keeps
# its layers between runs, beside the steps above.
start "container" npm run --silent test:container
for pass in "${passes[@]}"; do
  [ "$pass" = "$first" ] || finish "$pass"
done
finish "process tests"
finish "container"
finish "end-to-end tests in Chromium"
stop_if_failed
foreground "logs of the integration runs hold no secrets" node scripts/check-logs.mjs "$ATOMIZE_LOG_CAPTURE_DIR"
stop_if_failed
step "all passed in $((SECONDS - started_at))s"
