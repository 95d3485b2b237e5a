# syntax=docker/dockerfile:1
# Build stage: compile the TypeScript sources.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled JavaScript, production dependencies, the app (schemas + config), non-root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=1337 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY schemas ./schemas
COPY config ./config
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 1337
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||1337)+'/_health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/content-service.mjs", "start"]
