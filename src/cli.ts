import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createServer } from './app.js';
import { runTokenCommand, TOKEN_USAGE } from './cli-commands.js';
import { ConfigError } from './config/index.js';
import { SchemaError } from './content-types/index.js';
import { isListenFailure, ListenError } from './listen.js';
import type { Logger } from './logger.js';
import { seedDemoContent } from './seed/demo-seed.js';
import { logUnhandledRejections } from './unhandled-rejections.js';

/** Wrong arguments: exit code 2, and a pointer to the command's `--help`. */
class ArgumentError extends Error {}

interface Command {
  summary: string;
  usage(): Promise<string>;
  run(argv: string[]): Promise<void>;
}

const START_USAGE = `usage: content-service start [--app DIR] [--port N] [--host H] [--memory | --data DIR] [--repair]
Serves the app's REST and GraphQL API; an empty database gets the app's seed.json.
  --app DIR    the app: a Strapi v4 project or schemas/ + config/ (default: APP_DIR, else the current directory)
  --port N     default: PORT, else server.port, else 1337
  --host H     default: HOST, else server.host, else 0.0.0.0
  --memory     the embedded engine without persistence
  --data DIR   the embedded engine's data directory (default: database.dataDir, else <app>/.data)
  --repair     a damaged data file of the embedded engine is repaired (damaged bytes moved aside
               into the data directory) instead of stopping start-up
environment: PORT, HOST, MONGODB_URI, APP_DIR, NODE_ENV, LOG_LEVEL, JWT_SECRET, API_TOKEN_SALT`;

const COMMANDS: Readonly<Record<string, Command>> = {
  start: {
    summary: "serve the app's REST and GraphQL API",
    usage: async () => START_USAGE,
    run: start,
  },
  engine: {
    summary: 'run the embedded MongoDB-compatible engine alone',
    usage: async () => (await import('./engine/cli.js')).USAGE,
    run: engine,
  },
  token: {
    summary: 'create, list or revoke API tokens',
    usage: async () => TOKEN_USAGE,
    run: runTokenCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'usage: content-service <command> [options]',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    'content-service <command> --help    the options of a command',
    'content-service --version',
    'exit codes: 0 done, 1 failed (one line says why; DEBUG=1 adds the stack), 2 wrong arguments',
  ].join('\n');
}

function version(): string {
  const file = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

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
    throw new ArgumentError(`--port must be a port number (0 to 65535), got ${values.port}`);
  const appDir = resolve(values.app ?? process.env.APP_DIR ?? process.cwd());
  const dataDir = values.data === undefined ? undefined : resolve(values.data);
  // Strapi runs in its app directory: relative paths in the app's own code (a bootstrap reading
  // `data/...`) mean the same here
  try {
    process.chdir(appDir);
  } catch {
    throw new ArgumentError(`the app directory ${appDir} does not exist or cannot be entered (--app or APP_DIR)`);
  }
  const started: { logger?: Logger } = {};
  // from the app's register and bootstrap on, as long as the process serves
  const stopLoggingRejections = logUnhandledRejections(() => started.logger);
  const service = await createServer({
    appDir,
    memory: values.memory ?? false,
    repair: values.repair ?? false,
    // the server's address is configuration the app's code reads (strapi.config.get('server.port'))
    config: {
      server: { ...(port !== undefined ? { port } : {}), ...(values.host !== undefined ? { host: values.host } : {}) },
      ...(dataDir ? { database: { dataDir } } : {}),
    },
  }).catch((err: unknown) => {
    stopLoggingRejections();
    throw err;
  });
  const { logger } = service.context;
  started.logger = logger;
  logger.info({ database: service.database }, `database: ${service.database}`);
  let url: string;
  try {
    const seeded = await seedDemoContent(service);
    if (seeded > 0) logger.info(`empty database: loaded ${seeded} demo operations from seed.json`);
    ({ url } = await service.start());
  } catch (err) {
    await service.stop();
    stopLoggingRejections();
    throw err;
  }
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
  const { main, parseArgs: parseEngineArgs } = await import('./engine/cli.js');
  let options: { host: string; port: number };
  try {
    options = parseEngineArgs(argv);
  } catch (err) {
    // the engine's own parser: its message is the problem, then its usage
    throw new ArgumentError((err as Error).message.split('\n')[0]);
  }
  try {
    await main(argv);
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (err instanceof Error && code !== undefined && isListenFailure(code))
      throw new ListenError(options.host, options.port, code, err, { port: '--port', host: '--host' });
    throw err;
  }
}

/**
 * Runs one command. Resolves with the exit code when the process should end now (a failure: 1, wrong
 * arguments: 2); undefined when it ends by itself (help, token) or keeps serving (start, engine).
 */
export async function run(argv: string[]): Promise<number | undefined> {
  const [name, ...rest] = argv;
  try {
    if (name === '--version' || name === '-v') return void console.log(version());
    if (name === undefined || name === '--help' || name === '-h') return void console.log(usage());
    if (name === 'help') {
      const topic = rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined;
      return void console.log(topic ? await topic.usage() : usage());
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) throw new ArgumentError(`unknown command "${name}"`);
    if (rest.includes('--help') || rest.includes('-h')) return void console.log(await command.usage());
    await command.run(rest);
    return undefined;
  } catch (err) {
    return report(err, name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined);
  }
}

/** Prints the failure on one line (its stack too when DEBUG is set); the exit code. */
function report(err: unknown, command: string | undefined): number {
  const wrongArguments = err instanceof ArgumentError || isParseArgsError(err);
  const message = wrongArguments ? (err as Error).message : failure(err);
  const help = command ? `content-service ${command} --help` : 'content-service --help';
  console.error(
    `content-service${command ? ` ${command}` : ''}: ${message.replace(/\s*\n\s*/g, ' ')}` +
      (wrongArguments ? ` (see ${help})` : ''),
  );
  if (process.env.DEBUG && err instanceof Error && err.stack) console.error(err.stack);
  return wrongArguments ? 2 : 1;
}

function isParseArgsError(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code?.toString().startsWith('ERR_PARSE_ARGS') === true;
}

const DATA_DIR_ERRORS = new Set(['DataDamagedError', 'DataDirLockedError']);

/** Failures the user can fix are said as they are; anything else is a bug, said in one line too. */
function failure(err: unknown): string {
  if (err instanceof SchemaError || err instanceof ConfigError || err instanceof ListenError) return err.message;
  if (!(err instanceof Error)) return String(err);
  // the embedded engine's data directory: damaged (see --repair) or held by another process
  if (DATA_DIR_ERRORS.has(err.name)) return err.message;
  // a database that cannot be reached or a URI that cannot be read (the URI may hold a password: not repeated)
  if (err.name.startsWith('Mongo')) return `the database (MONGODB_URI or database.uri): ${err.message}`;
  return `${err.message}${process.env.DEBUG ? '' : ' (unexpected: run with DEBUG=1 for the stack trace and report it)'}`;
}
