import { parseArgs } from 'node:util';
import { createServer } from './app.js';
import { ConfigError } from './config/index.js';
import { SchemaError } from './content-types/index.js';
import { seedDemoContent } from './seed/demo-seed.js';

const USAGE = `usage:
  content-service start [--app DIR] [--port N] [--host H] [--memory | --data DIR] [--repair]
  content-service engine [--port N] [--host H] [--data DIR | --memory] [--repair] [--max-time-ms N]
--repair: a damaged data file of the embedded engine is repaired (damaged bytes moved aside into
  the data directory) instead of stopping start-up
environment: PORT, HOST, MONGODB_URI, APP_DIR, NODE_ENV, LOG_LEVEL`;

async function start(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      app: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      memory: { type: 'boolean' },
      data: { type: 'string' },
      repair: { type: 'boolean' },
    },
    strict: true,
  });
  const port = values.port !== undefined ? Number(values.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    throw new ConfigError('--port', undefined, `must be a port number, got ${values.port}`);
  const service = await createServer({
    appDir: values.app ?? process.env.APP_DIR ?? process.cwd(),
    memory: values.memory ?? false,
    repair: values.repair ?? false,
    config: values.data ? { database: { dataDir: values.data } } : {},
  });
  const { logger } = service.context;
  logger.info({ database: service.database }, `database: ${service.database}`);
  const seeded = await seedDemoContent(service);
  if (seeded > 0) logger.info(`empty database: loaded ${seeded} demo operations from seed.json`);
  const { url } = await service.start({ port, host: values.host });
  logger.info(`Content Service listening on ${url}`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function engine(argv: string[]): Promise<void> {
  const { main } = await import('./engine/cli.js');
  await main(argv);
}

/** The embedded engine's data directory is damaged (see --repair) or in use: one line, no stack. */
const DATA_DIR_ERRORS = new Set(['DataDamagedError', 'DataDirLockedError']);

export async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'start':
        await start(rest);
        break;
      case 'engine':
        await engine(rest);
        break;
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        console.log(USAGE);
        break;
      default: {
        const plugins = await import('./cli-commands.js');
        if (!(await plugins.runPluginCommand(command, rest))) {
          console.error(`unknown command "${command}"\n${USAGE}`);
          process.exitCode = 2;
        }
      }
    }
  } catch (err) {
    const message = startupFailure(err);
    if (message === undefined) throw err;
    // one line, never a stack trace: what failed, where, and the fix
    console.error(`content-service: ${message.replace(/\s*\n\s*/g, ' ')}`);
    process.exit(1);
  }
}

/** The message of a failure the user can fix (configuration, schemas, arguments, a busy port); undefined for a bug. */
function startupFailure(err: unknown): string | undefined {
  if (err instanceof SchemaError || err instanceof ConfigError || DATA_DIR_ERRORS.has((err as Error).name))
    return (err as Error).message;
  const { code, message, port } = err as { code?: string; message?: string; port?: number };
  if (code?.startsWith('ERR_PARSE_ARGS')) return message;
  if (code === 'EADDRINUSE') return `port ${port} is in use: choose another with --port, PORT or server.port`;
  if (code === 'EACCES')
    return `port ${port} cannot be opened by this user: choose one above 1023 with --port, PORT or server.port`;
  return undefined;
}
