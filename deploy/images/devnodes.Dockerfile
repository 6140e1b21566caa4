# Dev node peers for docker-compose's `devnodes` profile (never for production); context: the
# repository root. Targets:
#   tron-devnode  the project's java-tron HTTP API simulator (peers/tron-devnode), bundled
#   anvil         Anvil (Foundry's node from the npm package @foundry-rs/anvil-linux-amd64; chain id
#                 31337, the usual funded dev accounts, call traces for the scanner's internal transfers)
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS tron-devnode-build
WORKDIR /build
COPY peers/tron-devnode/package.json /tmp/tron-devnode-package.json
COPY packages/chains/tron/package.json /tmp/tron-package.json
# Its runtime dependencies and those of @chaingate/tron (its workspace dependency) at the versions
# their package.json files pin, and the workspace's esbuild.
RUN npm init -y >/dev/null \
 && npm install --no-fund --no-audit --loglevel=error esbuild@0.25.12 \
      $(node -e 'const d={...require("/tmp/tron-devnode-package.json").dependencies,...require("/tmp/tron-package.json").dependencies};console.log(Object.entries(d).filter(([,v])=>!v.startsWith("workspace:")).map(([n,v])=>n+"@"+v).join(" "))')
# The workspace packages as esbuild resolves them (their package.json "exports" point at their
# sources): @chaingate/tron and its own workspace dependencies, @chaingate/config (the token list's
# parser; its zod is the one installed above) and @chaingate/errors.
COPY packages/chains/tron/package.json ./node_modules/@chaingate/tron/package.json
COPY packages/chains/tron/src ./node_modules/@chaingate/tron/src
COPY packages/config/package.json ./node_modules/@chaingate/config/package.json
COPY packages/config/src ./node_modules/@chaingate/config/src
COPY packages/errors/package.json ./node_modules/@chaingate/errors/package.json
COPY packages/errors/src ./node_modules/@chaingate/errors/src
COPY peers/tron-devnode/src ./src
RUN npx esbuild src/bin/tron-devnode.ts --bundle --platform=node --format=esm --target=node20 \
      --outfile=/out/tron-devnode.mjs --log-level=warning \
      "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);"

FROM ${NODE_IMAGE} AS tron-devnode
WORKDIR /app
COPY --from=tron-devnode-build /out /app
USER 1000:1000
ENV TRON_DEVNODE_HOST=0.0.0.0 TRON_DEVNODE_PORT=8090
EXPOSE 8090
CMD ["node", "tron-devnode.mjs"]

FROM ${NODE_IMAGE} AS anvil
WORKDIR /app
# The binary ships in an npm package: no download outside the registry.
RUN npm init -y >/dev/null && npm install --no-fund --no-audit --loglevel=error @foundry-rs/anvil-linux-amd64@1.7.1 \
 && chown -R 1000:1000 /app
USER 1000:1000
EXPOSE 8545
CMD ["/app/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil", "--host", "0.0.0.0", "--port", "8545", "--chain-id", "31337"]
