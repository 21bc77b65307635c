# The reference simulator as an image: `docker build -t rdx-simulator . && docker run -p 8080:8080 rdx-simulator`.
# Set RDX_SIM_CLIENT_ID / RDX_SIM_CLIENT_SECRET to replace the demo credentials; any `rdx simulate` option can be
# appended to the run command (it replaces CMD, so repeat `simulate --host 0.0.0.0 --port 8080`).

# --- build: install everything, compile, then keep only production dependencies --------------------------------
FROM node:20-alpine AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the prepare script builds, and the sources are not copied yet.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY spec ./spec
COPY src ./src
COPY simulator ./simulator
COPY bench ./bench
RUN npx tsc -p tsconfig.json \
 && npm prune --omit=dev --no-audit --no-fund

# --- run: compiled code, spec data and production dependencies, as the unprivileged node user ----------------
FROM node:20-alpine
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/spec ./spec
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD wget -q -O /dev/null http://127.0.0.1:8080/__admin/health || exit 1
CMD ["node", "dist/src/cli/main.js", "simulate", "--host", "0.0.0.0", "--port", "8080"]
