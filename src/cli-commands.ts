import { parseArgs } from 'node:util';
import { isApiTokenType } from './access/abilities.js';
import { createServer, type ContentService } from './app.js';
import { isAppError } from './errors/index.js';
import { createApiToken, listApiTokens, revokeApiToken } from './plugins/users-permissions/index.js';

const TOKEN_USAGE = `usage:
  content-service token create --name N --type read-only|full-access|custom [--actions a,b] [--days N] [--description D]
  content-service token list
  content-service token revoke ID
options (as for start): --app DIR, --data DIR; environment: MONGODB_URI, APP_DIR
The key is printed once, alone on the last line. With the embedded engine persisted under .data/,
the engine's data directory is locked by a running service: stop it first, or run the engine on its
own (content-service engine --data DIR) and give both the service and this command MONGODB_URI.`;

class UsageError extends Error {}

/** Opens the app's database the way `start` does, runs `fn`, closes everything. */
async function withService<T>(values: { app?: string; data?: string }, fn: (service: ContentService) => Promise<T>): Promise<T> {
  const service = await createServer({
    appDir: values.app ?? process.env.APP_DIR ?? process.cwd(),
    config: values.data ? { database: { dataDir: values.data } } : {},
  });
  try {
    return await fn(service);
  } finally {
    await service.stop();
  }
}

async function tokenCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      app: { type: 'string' }, data: { type: 'string' },
      name: { type: 'string' }, type: { type: 'string' }, actions: { type: 'string' }, days: { type: 'string' }, description: { type: 'string' },
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
      if (days !== undefined && (!Number.isFinite(days) || days <= 0)) throw new UsageError('--days must be a positive number');
      const actions = values.actions?.split(',').map((a) => a.trim()).filter((a) => a !== '');
      if (values.type === 'custom' && (!actions || actions.length === 0)) throw new UsageError('a custom token needs --actions');
      const type = values.type;
      const name = values.name;
      const { id, accessKey } = await withService(values, (s) => createApiToken(s.context, { name, type, actions, days, description: values.description }));
      console.log(`Created API token #${id} "${name}" (${type}${days !== undefined ? `, expires in ${days} days` : ''}). Keep the key: it is not shown again.`);
      console.log(accessKey);
      return;
    }
    case 'list': {
      const tokens = await withService(values, (s) => listApiTokens(s.context));
      if (tokens.length === 0) console.log('no API tokens');
      for (const t of tokens) {
        const expires = t.expiresAt ? t.expiresAt.toISOString() : 'never';
        const used = t.lastUsedAt ? t.lastUsedAt.toISOString() : 'never';
        console.log(`${t.id}\t${t.name}\t${t.type}${t.type === 'custom' ? ` [${t.actions.join(',')}]` : ''}\texpires: ${expires}\tlast used: ${used}`);
      }
      return;
    }
    case 'revoke': {
      const id = Number(rest[0]);
      if (!Number.isSafeInteger(id) || id < 1) throw new UsageError('token revoke needs the token id (see token list)');
      const removed = await withService(values, (s) => revokeApiToken(s.context, id));
      if (!removed) throw new UsageError(`no API token #${id}`);
      console.log(`Revoked API token #${id}`);
      return;
    }
    default:
      throw new UsageError(sub ? `unknown token command "${sub}"` : 'missing token command');
  }
}

/** Commands contributed by plugins (users-permissions adds `token create|list|revoke`). */
export async function runPluginCommand(command: string, argv: string[]): Promise<boolean> {
  if (command !== 'token') return false;
  try {
    await tokenCommand(argv);
  } catch (err) {
    if (err instanceof UsageError || isAppError(err)) {
      console.error(`content-service token: ${err.message}${err instanceof UsageError ? `\n${TOKEN_USAGE}` : ''}`);
      process.exitCode = err instanceof UsageError ? 2 : 1;
      return true;
    }
    throw err;
  }
  return true;
}
