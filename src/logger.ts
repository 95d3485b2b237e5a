import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(env: string): Logger {
  const level = process.env.LOG_LEVEL ?? (env === 'test' ? 'silent' : 'info');
  return pino({ level, base: undefined, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}
