#!/usr/bin/env bash
# Prepares a fresh machine (Node and npm present) for chaingate: Node 22 LTS where the machine's is
# older, pnpm, Debian packages for the dev node peers, workspace dependencies, and running Postgres
# and NATS (JetStream): what the running stack uses (dev.sh) and the tests too (test.sh, which adds
# Docker). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
: "${DATABASE_URL:=postgres://postgres@127.0.0.1:5432/postgres}"
: "${NATS_URL:=nats://127.0.0.1:4222}"
export DATABASE_URL NATS_URL

log() { printf '[bootstrap] %s\n' "$*" >&2; }

# Node 22 LTS first on PATH (installed from the npm registry where the machine's node is older).
source scripts/ensure-node.sh

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  log "installing pnpm $PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION" >/dev/null
fi

listening() { node -e 'const u=new URL(process.argv[1]);require("net").connect(+u.port,u.hostname).on("connect",()=>process.exit(0)).on("error",()=>process.exit(1))' "$1"; }

# Debian packages: litecoind is the Bitcoin-compatible regtest node of the dev stack and tests;
# chromium, for the test command only (BOOTSTRAP_BROWSER=1, set by test.sh), is the headless browser
# of the console's browser test (no browser is downloaded), and iptables drops a lease session's
# packets in the scanner's partition test (as root; without it that one test is skipped);
# PostgreSQL and nats-server (JetStream) when nothing serves DATABASE_URL/NATS_URL and they are
# not installed (a fresh machine with only Node and npm); the drills use their binaries too.
missing=()
command -v litecoind >/dev/null 2>&1 || missing+=(litecoind)
if [ -n "${BOOTSTRAP_BROWSER:-}" ]; then command -v chromium >/dev/null 2>&1 || missing+=(chromium); fi
if [ -n "${BOOTSTRAP_BROWSER:-}" ] && [ "$(id -u)" = 0 ]; then command -v iptables >/dev/null 2>&1 || missing+=(iptables); fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
{ command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ]; } || missing+=(nats-server)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${missing[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    if [[ " ${missing[*]} " == *" postgresql "* ]]; then
      # A cluster installed here for development: loopback connections as in DATABASE_URL's default
      # (postgres@127.0.0.1, no password), as the build machines have it.
      for hba in /etc/postgresql/*/main/pg_hba.conf; do
        sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
      done
    fi
  else
    log "missing ${missing[*]}: install with 'sudo apt-get install ${missing[*]}'"
    exit 1
  fi
fi

log "installing workspace dependencies"
pnpm install --frozen-lockfile --reporter=silent

# Postgres and NATS: reuse what DATABASE_URL/NATS_URL point at; start the local ones if they are
# installed here but stopped (a build machine's services).
wait_for() { for _ in $(seq 1 50); do listening "$1" && return 0; sleep 0.2; done; return 1; }

if ! listening "$DATABASE_URL"; then
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    log "starting the local PostgreSQL cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  wait_for "$DATABASE_URL" || { log "Postgres is not reachable at $DATABASE_URL"; exit 1; }
fi
if ! listening "$NATS_URL"; then
  if command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ]; then
    log "starting a local NATS server with JetStream"
    mkdir -p /tmp/chaingate-nats
    (command -v nats-server || echo /usr/sbin/nats-server) | xargs -I{} sh -c '{} -a 127.0.0.1 -p 4222 -js -sd /tmp/chaingate-nats >/tmp/chaingate-nats.log 2>&1 &'
  fi
  wait_for "$NATS_URL" || { log "NATS is not reachable at $NATS_URL"; exit 1; }
fi
