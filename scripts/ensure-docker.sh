#!/usr/bin/env bash
# Makes a Docker engine available for the image and compose tests (deploy/tests): installs Debian's
# docker.io, docker-compose and debootstrap when absent and starts dockerd in the background when
# nothing answers. Exits 0 when `docker info` answers, 1 otherwise (those tests then skip with a
# message). Idempotent; never fatal to its caller when used as `bash scripts/ensure-docker.sh || true`.
set -uo pipefail

log() { printf '[ensure-docker] %s\n' "$*" >&2; }
engine_up() { docker info >/dev/null 2>&1; }

if engine_up && command -v docker-compose >/dev/null 2>&1 && command -v debootstrap >/dev/null 2>&1; then
  exit 0
fi

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    log "missing ${missing[*]} and cannot install them here (needs root and apt-get)"
    exit 1
  fi
  log "installing ${missing[*]}"
  apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || { log "apt-get install failed"; exit 1; }
fi

if ! engine_up; then
  if [ "$(id -u)" != 0 ]; then
    log "no Docker engine answers and only root can start dockerd"
    exit 1
  fi
  log "starting dockerd (log: /tmp/chaingate-dockerd.log)"
  # Its own session: a script that stops its process group on exit (the dev stack does) must not take
  # the engine down with it.
  setsid nohup dockerd >/tmp/chaingate-dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 60); do engine_up && break; sleep 0.5; done
fi
engine_up || { log "dockerd did not come up; see /tmp/chaingate-dockerd.log"; exit 1; }
