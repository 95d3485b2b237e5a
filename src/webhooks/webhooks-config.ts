import { ConfigError, type ServiceConfig } from '../config/index.js';

/** `config/server` `webhooks`: the headers every webhook call carries (Strapi's `defaultHeaders`). */
export interface WebhooksConfig {
  defaultHeaders: Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function webhooksConfig(config: ServiceConfig): WebhooksConfig {
  const server = isRecord(config.tree.server) ? config.tree.server : {};
  const webhooks = isRecord(server.webhooks) ? server.webhooks : {};
  const headers = webhooks.defaultHeaders ?? {};
  if (!isRecord(headers) || Object.values(headers).some((value) => typeof value !== 'string'))
    throw new ConfigError(
      config.fileOf('server', 'webhooks.defaultHeaders'),
      'webhooks.defaultHeaders',
      'must be an object of header names to string values, e.g. { Authorization: "Bearer ..." }',
    );
  return { defaultHeaders: headers as Record<string, string> };
}
