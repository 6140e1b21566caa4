#!/usr/bin/env bash
# Starts the whole system locally: Postgres and NATS (reused, or started if stopped), JetStream
# streams, the dev node peers and every service. Ctrl-C stops all of it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bootstrap.sh
exec pnpm exec tsx scripts/dev.ts
