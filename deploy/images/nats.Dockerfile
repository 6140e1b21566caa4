# nats-server from Debian's package (2.9, with JetStream), started like the official image:
# arguments go to nats-server (e.g. -js -sd /data). For compose and testcontainers on machines that
# cannot pull nats:2.10-alpine.
ARG DEBIAN_IMAGE=chaingate-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nats-server wget \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown 1000:1000 /data
USER 1000:1000
EXPOSE 4222 8222
ENTRYPOINT ["nats-server"]
CMD ["-js", "-sd", "/data", "-m", "8222"]
