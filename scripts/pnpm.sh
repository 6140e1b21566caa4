#!/usr/bin/env bash
# The workspace's pnpm, for the commands the README and docs/ show (`bash scripts/pnpm.sh --silent
# admin …`, `bash scripts/pnpm.sh bench …`): on a machine whose PATH has no pnpm, or only an older
# Node, it runs with what the bootstrap installed (Node 22 from the npm registry, pnpm), from the
# repository root. `bash scripts/dev.sh` or `bash scripts/test.sh` installs them first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-node.sh
if ! command -v pnpm >/dev/null 2>&1; then
  printf '[pnpm.sh] pnpm is not installed yet: run bash scripts/dev.sh (or bash scripts/test.sh) once first\n' >&2
  exit 1
fi
exec pnpm "$@"
