#!/usr/bin/env bash
# Runs every test (unit and integration against real Postgres, NATS and node peers), the type
# check and the linter. Ends with 'tests: N passed, M failed' counted from vitest's own report.
set -uo pipefail
cd "$(dirname "$0")/.."
# The console's browser test drives Debian's chromium: bootstrap installs it for the tests only.
BOOTSTRAP_BROWSER=1 source scripts/bootstrap.sh
# Docker only for the image and compose tests; the dev start (dev.sh) does without it.
bash scripts/ensure-docker.sh || log "no Docker engine here: the image, compose and testcontainers tests (deploy/tests) will be skipped"
# bootstrap runs with -e; from here on every step runs and the summary line is always printed.
set +e

mkdir -p .tmp
report=.tmp/vitest-report.json
rm -f "$report"
# The console's static build (what the gateway serves at /console); its browser test builds its own copy too.
pnpm --filter @chaingate/console build --logLevel warn
console_build_status=$?
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$report"
tests_status=$?
# The type check and the linter read the same files and share nothing else: run side by side.
pnpm typecheck > .tmp/typecheck.log 2>&1 &
typecheck_pid=$!
pnpm lint > .tmp/lint.log 2>&1 &
lint_pid=$!
wait $typecheck_pid
typecheck_status=$?
wait $lint_pid
lint_status=$?
cat .tmp/typecheck.log .tmp/lint.log

node -e '
  const fs = require("fs");
  const file = process.argv[1];
  const r = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0 };
  const skipped = r.numPendingTests + (r.numTodoTests ?? 0);
  // A file that fails before its tests run (import error, failing hook) counts as one failure.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report"
[ $console_build_status -eq 0 ] && [ $tests_status -eq 0 ] && [ $typecheck_status -eq 0 ] && [ $lint_status -eq 0 ]
