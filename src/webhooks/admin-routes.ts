/**
 * Strapi's admin API for webhooks (`/admin/webhooks`...), answered as Strapi's admin answers it
 * (`{ data }`, 201 on create, 404 `webhook.notFound`). Strapi guards it with an admin panel
 * session, which this service does not have: here the caller must present a full-access API
 * token (`content-service token create --type full-access`); no credential is a 401, any other
 * (a user's JWT, a read-only or custom token) a 403.
 */
import { Router, type Request, type RequestHandler } from 'express';
import type { Authenticator } from '../access/ability.js';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors/index.js';
import type { Webhook } from './events.js';
import { checkWebhookCreate, checkWebhookUpdate } from './webhook-input.js';
import type { WebhookRunner } from './webhook-runner.js';
import type { WebhookStore } from './webhook-store.js';

export interface WebhookAdminHost {
  store: WebhookStore;
  runner: WebhookRunner;
  authenticate: Authenticator;
}

const notFound = () => new NotFoundError('webhook.notFound');

function fullAccessOnly(authenticate: Authenticator): RequestHandler {
  return async (req, _res, next) => {
    const auth = await authenticate(req);
    if (auth.strategy === 'api-token' && auth.token?.type === 'full-access') return next();
    if (auth.strategy === 'public' || auth.strategy === 'none')
      throw new UnauthorizedError('Missing or invalid credentials');
    throw new ForbiddenError();
  };
}

function idOf(req: Request): string {
  return String(req.params.id);
}

export function webhookAdminRoutes(host: WebhookAdminHost): Router {
  const { store, runner } = host;
  const router = Router();
  router.use('/webhooks', fullAccessOnly(host.authenticate));
  router.get('/webhooks', async (_req, res) => {
    res.json({ data: await store.findWebhooks() });
  });
  router.post('/webhooks', async (req, res) => {
    const webhook = await store.createWebhook(checkWebhookCreate(req.body));
    runner.add(webhook);
    res.status(201).json({ data: webhook });
  });
  router.post('/webhooks/batch-delete', async (req, res) => {
    const ids: unknown = typeof req.body === 'object' && req.body !== null ? req.body.ids : undefined;
    if (!Array.isArray(ids) || ids.length === 0) throw new BadRequestError('ids must be an array of id');
    for (const id of ids) {
      const deleted = await store.deleteWebhook(id);
      if (deleted) runner.remove(deleted);
    }
    res.json({ data: ids });
  });
  router.get('/webhooks/:id', async (req, res) => {
    const webhook = await store.findWebhook(idOf(req));
    if (!webhook) throw notFound();
    res.json({ data: webhook });
  });
  router.put('/webhooks/:id', async (req, res) => {
    const input = checkWebhookUpdate(req.body);
    const updated: Webhook | null = await store.updateWebhook(idOf(req), input);
    if (!updated) throw notFound();
    runner.update(updated);
    res.json({ data: updated });
  });
  router.delete('/webhooks/:id', async (req, res) => {
    const deleted = await store.deleteWebhook(idOf(req));
    if (!deleted) throw notFound();
    runner.remove(deleted);
    res.json({ data: deleted });
  });
  router.post('/webhooks/:id/trigger', async (req, res) => {
    const webhook = await store.findWebhook(idOf(req));
    if (!webhook) throw notFound();
    res.json({ data: await runner.run(webhook, 'trigger-test', {}) });
  });
  return router;
}
