import { startEngine } from './index.js';

export const USAGE = 'usage: content-service engine [--port N] [--host H] [--data DIR | --memory]';

export interface CliOptions {
  port: number;
  host: string;
  dataDir?: string;
}

export function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { port: 27017, host: '127.0.0.1', dataDir: '.data/engine' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    switch (arg) {
      case '--port': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid port\n${USAGE}`);
        opts.port = n;
        break;
      }
      case '--host':
        opts.host = value();
        break;
      case '--data':
        opts.dataDir = value();
        break;
      case '--memory':
        opts.dataDir = undefined;
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return opts;
}

/** Runs the engine alone until SIGINT/SIGTERM (`content-service engine ...`). */
export async function main(argv: string[]): Promise<void> {
  const opts = parseArgs(argv);
  const log = (msg: string) => process.stderr.write(`engine: ${msg}\n`);
  const engine = await startEngine({ ...opts, logger: log });
  log(`listening on ${engine.uri} (${opts.dataDir ? `data in ${opts.dataDir}` : 'in memory'})`);
  process.stdout.write(`${engine.uri}\n`);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await engine.stop();
}
