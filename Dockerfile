# The harness and its reference simulator as an image: the npm package (what `npm pack` ships) with its production
# dependencies only, `rdx` on the PATH. See docs/image.md.
#
#   docker build -t rdx-conformance .
#   docker run --rm -p 8080:8080 rdx-conformance                        # the simulator (the default command)
#   docker run --rm --network host -e RDX_CLIENT_SECRET rdx-conformance rdx run --base-url http://127.0.0.1:8080 --client-id acme
#
# NODE_IMAGE: the base. Where no registry is reachable, scripts/node-base-image.sh makes a local stand-in
# (docker build --network host --build-arg NODE_IMAGE=rdx-node-base:local …); .ci/run builds this file that way.
ARG NODE_IMAGE=node:20-alpine

# --- build: compile, pack, and install the packed files with the locked production dependencies ----------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: no install script of a dependency runs here (the package's own build is the next step).
RUN npm ci --ignore-scripts --no-audit --no-fund
# The whole checkout (.dockerignore leaves out node_modules, dist, reports and local state): what goes into the
# image is chosen below, by package.json "files", not here.
COPY . .
# The image holds exactly what the npm package holds (package.json "files"), so the two cannot drift apart; the
# lock file pins the production dependencies to the versions the tests ran with.
# npm run build, not tsc alone: it also bundles the report's and the dashboard's browser code (esbuild).
RUN npm run build \
 && npm pack --ignore-scripts --pack-destination /tmp \
 && mkdir /app \
 && tar -xzf /tmp/rdx-conformance-*.tgz -C /app --strip-components=1 \
 && cp package-lock.json /app/ \
 && cd /app \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm package-lock.json \
 && chmod 755 dist/src/cli/main.js

# --- run: the package and production dependencies, as the unprivileged node user -------------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
COPY --from=build /app /app
# /work: where `rdx run` writes reports/ and looks for rdx.config.yaml; mount a folder there to keep them.
RUN ln -s /app/dist/src/cli/main.js /usr/local/bin/rdx \
 && mkdir /work \
 && chown node:node /work
WORKDIR /work
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/__admin/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["rdx", "simulate", "--host", "0.0.0.0", "--port", "8080"]
