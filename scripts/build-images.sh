#!/usr/bin/env bash
# Builds every service image from deploy/Dockerfile, tagged <prefix>/<service>:<tag>
# (CHAINGATE_IMAGE_PREFIX, default chaingate; CHAINGATE_IMAGE_TAG, default latest: what
# docker-compose.yml runs).
#
#   bash scripts/build-images.sh [--devnodes] [--bases] [--ref=<git ref>] [service…]
#
# The build context is the working tree, or with --ref the committed tree of that ref (git archive:
# what CI builds, untouched by uncommitted edits).
# --devnodes adds the dev node peers' images (tron-devnode, anvil); --bases builds the local base
# images alone (no service).
#
# NODE_IMAGE set (e.g. node:22-bookworm-slim where a registry is reachable): the services build on
# it, nothing else. Unset: everything is made locally, since no image can be pulled here:
#   chaingate-local/debian:bookworm   debootstrap --variant=minbase (rootfs cached in .tmp/deploy)
#   chaingate-local/node:22           + this machine's node binary and npm
#   chaingate-local/postgres:15       + Debian's postgresql-15, started like the official image
#   chaingate-local/nats:2.9          + Debian's nats-server (JetStream)
#   chaingate-local/litecoind         + Debian's litecoind (the devnodes profile's Bitcoin node)
# and chaingate/tron-devnode, chaingate/anvil with --devnodes. Layers are cached: a second run
# rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${CHAINGATE_IMAGE_PREFIX:-chaingate}
TAG=${CHAINGATE_IMAGE_TAG:-latest}
LOCAL=chaingate-local
DEBIAN_IMAGE=$LOCAL/debian:bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CACHE=.tmp/deploy
# The classic builder: BuildKit needs the buildx plugin, which Debian's docker.io lacks.
export DOCKER_BUILDKIT=${DOCKER_BUILDKIT:-0}

log() { printf '[build-images] %s\n' "$*" >&2; }
# The local node base carries this machine's node binary: Node 22 LTS, as bootstrap puts it on PATH.
source scripts/ensure-node.sh
bash scripts/ensure-docker.sh || { log "no Docker engine (bash scripts/ensure-docker.sh, as root, installs and starts one)"; exit 1; }
# One build at a time (tests in parallel share the cache and the debootstrap folder).
mkdir -p "$CACHE"
exec 9>"$CACHE/build-images.lock"
flock 9
have_image() { docker image inspect "$1" >/dev/null 2>&1; }
# The repository as build context: the working tree, or the tree of --ref on stdin.
build_from_repo() {
  if [ -n "$ref" ]; then
    git archive --format=tar "$ref" | build "$@" -
  else
    build "$@" .
  fi
}
# Quiet unless it fails: then the whole build log.
build() {
  local output
  output=$(docker build "$@" 2>&1) || { printf '%s\n' "$output" >&2; return 1; }
}

devnodes=false
bases_only=false
ref=""
services=()
for arg in "$@"; do
  case "$arg" in
    --devnodes) devnodes=true ;;
    --bases) bases_only=true ;;
    --ref=*) ref=${arg#--ref=} ;;
    *) services+=("$arg") ;;
  esac
done
if [ ${#services[@]} -eq 0 ] && ! $bases_only; then
  for dir in services/*/; do
    name=$(basename "$dir")
    if [ -n "$ref" ]; then
      git cat-file -e "$ref:services/$name/src/main.ts" 2>/dev/null && services+=("$name")
    else
      [ -e "services/$name/src/main.ts" ] && services+=("$name")
    fi
  done
fi

if [ -z "${NODE_IMAGE:-}" ]; then
  if ! have_image "$DEBIAN_IMAGE"; then
    rootfs=$CACHE/bookworm-rootfs
    if [ ! -f "$CACHE/bookworm-rootfs.done" ]; then
      log "debootstrap bookworm (minbase) into $rootfs"
      rm -rf "$rootfs"
      mkdir -p "$CACHE"
      debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
        || { log "debootstrap failed, see $CACHE/debootstrap.log"; exit 1; }
      touch "$CACHE/bookworm-rootfs.done"
    fi
    log "importing $DEBIAN_IMAGE"
    tar -C "$rootfs" --exclude="./var/cache/apt/archives/*.deb" --exclude="./var/lib/apt/lists/*" -c . | docker import - "$DEBIAN_IMAGE" >/dev/null
  fi

  NODE_IMAGE=$LOCAL/node:22
  node_bin=$(command -v node)
  node_version=$("$node_bin" --version)
  if [ "$(docker image inspect -f '{{ index .Config.Labels "node.version" }}' "$NODE_IMAGE" 2>/dev/null)" != "$node_version" ]; then
    log "building $NODE_IMAGE (node $node_version from $node_bin)"
    context=$CACHE/node-context
    rm -rf "$context" && mkdir -p "$context"
    cp "$node_bin" "$context/node"
    cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$context/npm"
    cp deploy/images/node.Dockerfile "$context/Dockerfile"
    cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$context/ca-certificates.crt"
    build --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" --label "node.version=$node_version" -t "$NODE_IMAGE" "$context"
    rm -rf "$context"
  fi

  log "building $LOCAL/postgres:15, $LOCAL/nats:2.9 and $LOCAL/litecoind"
  build --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -f deploy/images/postgres.Dockerfile -t "$LOCAL/postgres:15" deploy/images
  build --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -f deploy/images/nats.Dockerfile -t "$LOCAL/nats:2.9" deploy/images
  build --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -f deploy/images/litecoind.Dockerfile -t "$LOCAL/litecoind" deploy/images
fi
$bases_only && exit 0

for service in ${services[@]+"${services[@]}"}; do
  log "building $PREFIX/$service:$TAG on $NODE_IMAGE"
  started=$SECONDS
  build_from_repo -f deploy/Dockerfile --target runtime --build-arg "NODE_IMAGE=$NODE_IMAGE" --build-arg "SERVICE=$service" -t "$PREFIX/$service:$TAG"
  log "  $PREFIX/$service:$TAG in $((SECONDS - started)) s"
done
if $devnodes; then
  log "building $PREFIX/tron-devnode:$TAG and $PREFIX/anvil:$TAG"
  build_from_repo -f deploy/images/devnodes.Dockerfile --target tron-devnode --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$PREFIX/tron-devnode:$TAG"
  build_from_repo -f deploy/images/devnodes.Dockerfile --target anvil --build-arg "NODE_IMAGE=$NODE_IMAGE" -t "$PREFIX/anvil:$TAG"
fi
