# litecoind -regtest from Debian's package: the dev stack's Bitcoin-compatible node (Bitcoin Core
# 0.21's JSON-RPC), for docker-compose's optional `devnodes` profile.
ARG DEBIAN_IMAGE=chaingate-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends litecoind \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 1000 --create-home --shell /bin/sh litecoin
USER litecoin
EXPOSE 18443
ENTRYPOINT ["litecoind", "-regtest", "-printtoconsole", "-server", "-rpcport=18443", "-rpcbind=0.0.0.0", "-rpcallowip=0.0.0.0/0", "-fallbackfee=0.0002"]
CMD ["-rpcuser=chaingate", "-rpcpassword=chaingate"]
