# syntax=docker/dockerfile:1
# Clingrade on Node 24 LTS, the reference runtime. Three stages: dependencies
# (cached while package-lock.json is unchanged), the production build, and a
# runtime image holding only the build's standalone folder (the server, the
# admin script and the packages they use: scripts/build-standalone.ts), run as
# the unprivileged `node` user. Configure it with the variables in README.md ("Running it").
# Administration inside a container: `node admin.mjs <command>` (DEPLOY.md).
#   docker build -t clingrade .
#   docker run -p 3000:3000 -e AUTH_SECRET=... -e DATABASE_URL=postgresql://... clingrade
# Without DATABASE_URL it starts the embedded PostgreSQL with its data in /data (mount a volume there).
ARG NODE_VERSION=24.22.3

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
# postinstall generates the Prisma client into lib/generated.
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# tini reaps the embedded PostgreSQL's processes and passes SIGTERM on (graceful shutdown);
# postgresql-client brings pg_dump and pg_restore for `npm run admin -- backup`: bookworm's are
# PostgreSQL 15, the embedded PostgreSQL's major (for a newer DATABASE_URL server, see README.md "Backups").
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini postgresql-client \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir /data && chown node:node /data
WORKDIR /app
COPY --from=build --chown=node:node /app/.next/standalone ./
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 HOST=0.0.0.0 PORT=3000 CLINGRADE_DATA_DIR=/data SHUTDOWN_TIMEOUT_MS=10000
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=90s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
# What `npm start` runs, without npm in between (signals reach the server directly).
CMD ["node", "--max-semi-space-size=32", "start.mjs", "start"]
