import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError, type ServiceConfig } from '../../config/index.js';

/** The secrets the plugin signs and hashes with. */
export interface Secrets {
  jwtSecret: string;
  apiTokenSalt: string;
}

type SecretsFile = Partial<Record<'jwtSecret' | 'apiTokenSalt', string>>;

/** `<appDir>/.data/secrets.json`: secrets generated once in development and kept across restarts. */
function secretsFile(config: ServiceConfig): string {
  return join(resolve(config.appDir, '.data'), 'secrets.json');
}

async function readSecretsFile(file: string): Promise<SecretsFile> {
  if (!existsSync(file)) return {};
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  return parsed && typeof parsed === 'object' ? (parsed as SecretsFile) : {};
}

function givenSecrets(config: ServiceConfig, configuredJwtSecret: string | undefined): Partial<Secrets> {
  return {
    jwtSecret: configuredJwtSecret || process.env.JWT_SECRET || undefined,
    apiTokenSalt: config.admin.apiTokenSalt || process.env.API_TOKEN_SALT || undefined,
  };
}

const WHERE_SET: Record<keyof Secrets, string> = {
  jwtSecret: "JWT_SECRET (or jwtSecret of plugins['users-permissions'].config in config/plugins)",
  apiTokenSalt: 'API_TOKEN_SALT (or apiToken.salt in config/admin)',
};

/**
 * In production the secrets must be given, as Strapi v4 refuses to start without them: generated
 * ones would live in one container's `.data/`, so a restart would invalidate every JWT and API
 * token, and replicas would reject each other's.
 */
export function checkProductionSecrets(config: ServiceConfig, configuredJwtSecret: string | undefined): void {
  if (config.env !== 'production') return;
  const given = givenSecrets(config, configuredJwtSecret);
  const missing = (Object.keys(WHERE_SET) as (keyof Secrets)[]).filter((key) => !given[key]);
  if (missing.length === 0) return;
  throw new ConfigError(
    'NODE_ENV=production',
    undefined,
    `${missing.map((key) => WHERE_SET[key]).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set; ` +
      'set them in the environment or .env, each a random string, e.g. the output of ' +
      `node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"`,
  );
}

/**
 * The configured secrets (`plugins['users-permissions'].config.jwtSecret`, `admin.apiToken.salt`,
 * where Strapi v4 reads them), else `JWT_SECRET` / `API_TOKEN_SALT` from the environment, else: in
 * production none (start-up stops), in tests a random secret per process, otherwise generated once
 * and kept under `<appDir>/.data/`.
 */
export async function resolveSecrets(config: ServiceConfig, configuredJwtSecret: string | undefined): Promise<Secrets> {
  checkProductionSecrets(config, configuredJwtSecret);
  const given = givenSecrets(config, configuredJwtSecret);
  if (given.jwtSecret && given.apiTokenSalt) return { jwtSecret: given.jwtSecret, apiTokenSalt: given.apiTokenSalt };
  if (config.env === 'test') {
    return {
      jwtSecret: given.jwtSecret ?? randomBytes(32).toString('base64'),
      apiTokenSalt: given.apiTokenSalt ?? TEST_SALT,
    };
  }
  const file = secretsFile(config);
  const stored = await readSecretsFile(file);
  const next: SecretsFile = { ...stored };
  if (!given.jwtSecret && !next.jwtSecret) next.jwtSecret = randomBytes(32).toString('base64');
  if (!given.apiTokenSalt && !next.apiTokenSalt) next.apiTokenSalt = randomBytes(32).toString('base64');
  if (next.jwtSecret !== stored.jwtSecret || next.apiTokenSalt !== stored.apiTokenSalt) {
    await mkdir(resolve(config.appDir, '.data'), { recursive: true });
    await writeFile(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  }
  return {
    jwtSecret: given.jwtSecret ?? next.jwtSecret ?? '',
    apiTokenSalt: given.apiTokenSalt ?? next.apiTokenSalt ?? '',
  };
}

/** One salt per test process, so tokens created programmatically match what the service checks. */
const TEST_SALT = randomBytes(32).toString('base64');
