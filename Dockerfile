# syntax=docker/dockerfile:1
# Build stage: compile the TypeScript sources.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled JavaScript, production dependencies, the demo app (schemas + config), non-root.
# An existing Strapi v4 project is mounted instead and named by APP_DIR (see README, Deployment):
# its config/*.ts and src/index.ts are compiled on the fly by tsx, a production dependency.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=1337 HOST=0.0.0.0 APP_DIR=/app
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY schemas ./schemas
COPY config ./config
# written at run time: the embedded engine's files (no MONGODB_URI) and the local upload provider's files
RUN mkdir -p /app/.data /app/public/uploads && chown -R node:node /app/.data /app/public
USER node
EXPOSE 1337
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||1337)+'/_health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/content-service.mjs", "start"]
