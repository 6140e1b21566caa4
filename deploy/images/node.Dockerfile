# A Node 22 base made without a registry: Debian bookworm (debootstrap, imported by
# scripts/build-images.sh) plus this machine's own node binary and npm. Stands in for the official
# node:22-bookworm-slim, with the same non-root user (node, uid 1000).
ARG DEBIAN_IMAGE=chaingate-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# This machine's CA bundle: the registry may be reached through a TLS-inspecting egress proxy.
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm_config_cafile=/etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home --shell /bin/sh node \
 && node --version
CMD ["node"]
