# syntax=docker/dockerfile:1
# Multi-stage build: dependencies, the client, the compiled server and its database seed are built once;
# the runtime image runs the compiled JavaScript as a non-root user with the data folder as a volume.
# BASE_IMAGE is the official Node 24 image; `npm run test:container` builds the same file on a stand-in
# made here from Debian and the registry's Node (tests/container/, decision 040).
ARG BASE_IMAGE=node:24-bookworm-slim
FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# What runs needs only the production dependencies. A stage of its own, so that its layer is rebuilt only
# when the lock file changes, not at every change of the sources.
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

FROM ${BASE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data HOST=0.0.0.0
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/drizzle ./drizzle
COPY --from=build --chown=node:node /app/scripts/run-built.mjs ./scripts/run-built.mjs
COPY --from=build --chown=node:node /app/package.json ./package.json
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The compiled server (npm run build); `docker exec … npm run make-admin -- someone@example.com` works too.
CMD ["node", "dist/server/main.js"]
