import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isApiTokenType } from './access/abilities.js';
import { createServer, type ContentService, type CreateServerOptions } from './app.js';
import { loadConfig } from './config/index.js';
import { RUNNING_URI_FILE } from './database/select-database.js';
import { isAppError } from './errors/index.js';
import { createApiToken, listApiTokens, revokeApiToken } from './plugins/users-permissions/index.js';

export const TOKEN_USAGE = `usage:
  content-service token create --name N --type read-only|full-access|custom [--actions a,b] [--days N] [--description D]
  content-service token list
  content-service token revoke ID
options (as for start): --app DIR, --data DIR; environment: MONGODB_URI, APP_DIR
The key is printed once, alone on the last line. With the embedded engine persisted under .data/
and a service running on this machine, the command goes through that service's engine (the data
directory is locked by it); from another machine, give MONGODB_URI.`;

class UsageError extends Error {}

/**
 * Where a token command writes and what it opens the database with: the process's console and
 * environment for the CLI; tests run the command in-process with their own.
 */
export interface TokenCommandIO {
  print(line: string): void;
  complain(line: string): void;
  /** merged under the app and data directory the arguments give (a database URI, config overrides) */
  server?: CreateServerOptions;
}

const CONSOLE_IO: TokenCommandIO = {
  print: (line) => console.log(line),
  complain: (line) => console.error(line),
};

const isLockError = (err: unknown) =>
  err instanceof Error && (err.name === 'DataDirLockedError' || err.constructor.name === 'DataDirLockedError');

/**
 * Opens the app's database the way `start` does. When a running service holds the embedded
 * engine's data directory, its engine (127.0.0.1, address in `<dataDir>/running-engine.uri`) is used.
 */
async function openService(
  values: { app?: string; data?: string },
  server: CreateServerOptions = {},
): Promise<ContentService> {
  const options: CreateServerOptions = {
    ...server,
    appDir: values.app ?? process.env.APP_DIR ?? process.cwd(),
    config: { ...server.config, ...(values.data ? { database: { dataDir: values.data } } : {}) },
  };
  try {
    return await createServer(options);
  } catch (err) {
    if (!isLockError(err)) throw err;
    const config = await loadConfig(options.appDir ?? process.cwd(), options.config);
    const file = config.database.dataDir ? join(config.database.dataDir, RUNNING_URI_FILE) : undefined;
    if (!file || !existsSync(file))
      throw new UsageError(`${(err as Error).message}; stop the service or give MONGODB_URI`);
    return createServer({ ...options, databaseUri: readFileSync(file, 'utf8').trim() });
  }
}

/** Runs `fn` on the app's service (not listening), then closes it. */
async function withService<T>(
  values: { app?: string; data?: string },
  server: CreateServerOptions | undefined,
  fn: (service: ContentService) => Promise<T>,
): Promise<T> {
  const service = await openService(values, server);
  try {
    return await fn(service);
  } finally {
    await service.stop();
  }
}

async function tokenCommand(argv: string[], io: TokenCommandIO): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      app: { type: 'string' },
      data: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string' },
      actions: { type: 'string' },
      days: { type: 'string' },
      description: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [sub, ...rest] = positionals;
  switch (sub) {
    case 'create': {
      if (!values.name) throw new UsageError('--name is required');
      if (!isApiTokenType(values.type)) throw new UsageError('--type must be read-only, full-access or custom');
      const days = values.days !== undefined ? Number(values.days) : undefined;
      if (days !== undefined && (!Number.isFinite(days) || days <= 0))
        throw new UsageError('--days must be a positive number');
      const actions = values.actions
        ?.split(',')
        .map((a) => a.trim())
        .filter((a) => a !== '');
      if (values.type === 'custom' && (!actions || actions.length === 0))
        throw new UsageError('a custom token needs --actions');
      const type = values.type;
      const name = values.name;
      const { id, accessKey } = await withService(values, io.server, (s) =>
        createApiToken(s.context, { name, type, actions, days, description: values.description }),
      );
      io.print(
        `Created API token #${id} "${name}" (${type}${days !== undefined ? `, expires in ${days} days` : ''}). Keep the key: it is not shown again.`,
      );
      io.print(accessKey);
      return;
    }
    case 'list': {
      const tokens = await withService(values, io.server, (s) => listApiTokens(s.context));
      if (tokens.length === 0) io.print('no API tokens');
      for (const t of tokens) {
        const expires = t.expiresAt ? t.expiresAt.toISOString() : 'never';
        const used = t.lastUsedAt ? t.lastUsedAt.toISOString() : 'never';
        io.print(
          `${t.id}\t${t.name}\t${t.type}${t.type === 'custom' ? ` [${t.actions.join(',')}]` : ''}\texpires: ${expires}\tlast used: ${used}`,
        );
      }
      return;
    }
    case 'revoke': {
      const id = Number(rest[0]);
      if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('token revoke needs the token id (see token list)');
      const removed = await withService(values, io.server, (s) => revokeApiToken(s.context, id));
      if (!removed) throw new UsageError(`no API token #${id}`);
      io.print(`Revoked API token #${id}`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown token command "${sub}"` : 'missing token command');
  }
}

/**
 * `content-service token create|list|revoke` (the users-permissions plugin's API tokens). Resolves
 * with the exit code of a refusal (wrong arguments: 2, refused by the service: 1), else undefined.
 */
export async function tokenCommandExit(argv: string[], io: TokenCommandIO = CONSOLE_IO): Promise<number | undefined> {
  try {
    await tokenCommand(argv, io);
    return undefined;
  } catch (err) {
    if (!(err instanceof UsageError) && !isAppError(err)) throw err;
    io.complain(`content-service token: ${err.message}${err instanceof UsageError ? `\n${TOKEN_USAGE}` : ''}`);
    return err instanceof UsageError ? 2 : 1;
  }
}

/** The CLI's `token` command: the exit code of a refusal is the process's. */
export async function runTokenCommand(argv: string[]): Promise<void> {
  const code = await tokenCommandExit(argv);
  if (code !== undefined) process.exitCode = code;
}
