# Postgres from Debian's packages, started like the official image: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB create the cluster on first start in PGDATA
# (/var/lib/postgresql/data); pg_isready answers health checks. For compose and testcontainers on
# machines that cannot pull postgres:16-alpine.
ARG DEBIAN_IMAGE=chaingate-local/debian:bookworm
FROM ${DEBIAN_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /var/lib/postgresql/15 /etc/postgresql \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER postgres
EXPOSE 5432
ENTRYPOINT ["sh", "/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
