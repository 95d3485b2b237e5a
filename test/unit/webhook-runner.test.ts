// The webhook runner alone, against a receiver on 127.0.0.1: what one call sends and answers
// (Strapi's shape), its timeout, the bounded concurrency and queue of the events, and stopping.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Webhook } from '../../src/webhooks/index.js';
import { createWebhookRunner } from '../../src/webhooks/webhook-runner.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port on 127.0.0.1 nothing listens on (one just given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('webhook runner', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver({
      '/fail': { status: 503, body: 'down for maintenance' },
      '/hang': { hang: true },
      '/held': { hang: true },
      '/verbose': { status: 500, body: 'x'.repeat(1_000_000) },
    });
  });
  after(() => receiver.close());
  beforeEach(() => {
    receiver.calls.length = 0;
  });

  const webhook = (path: string, events: string[] = ['entry.create'], isEnabled = true): Webhook => ({
    id: 1,
    name: `hook ${path}`,
    url: receiver.url(path),
    headers: { 'X-Own': 'own', 'X-Shared': 'webhook' },
    events,
    isEnabled,
  });
  // A call's timeout is far beyond what a call to this receiver takes on a busy machine: only the
  // test of the timeout itself makes it short.
  const runnerOf = (
    webhooks: Webhook[],
    options: { concurrency?: number; maxQueued?: number; timeoutMs?: number } = {},
  ) => {
    const { logger, lines } = capturingLogger();
    const delivery = createWebhookRunner({
      store: { findWebhooks: async () => webhooks },
      logger,
      defaultHeaders: { 'X-Default': 'default', 'X-Shared': 'default' },
      timeoutMs: 10_000,
      ...options,
    });
    return { delivery, lines };
  };

  it('run posts { event, createdAt, ...info } with the default headers under the webhook headers', async () => {
    const { delivery } = runnerOf([]);
    const result = await delivery.runner.run(webhook('/ok'), 'deploy', { id: 3, title: 'x' });
    expect(result).to.deep.equal({ statusCode: 200 });
    const [call] = receiver.calls;
    expect(call?.headers).to.include({
      'x-default': 'default',
      'x-own': 'own',
      'x-shared': 'webhook',
      'x-strapi-event': 'deploy',
      'content-type': 'application/json',
    });
    expect(call?.body).to.have.keys(['event', 'createdAt', 'id', 'title']);
    expect(call?.body).to.include({ event: 'deploy', id: 3, title: 'x' });
  });

  it('run answers a failure as Strapi does, never throwing: the status and body, a timeout, a refused connection', async () => {
    const { delivery } = runnerOf([]);
    expect(await delivery.runner.run(webhook('/fail'), 'entry.create')).to.deep.equal({
      statusCode: 503,
      message: 'down for maintenance',
    });
    const verbose = await delivery.runner.run(webhook('/verbose'), 'entry.create');
    expect(verbose.statusCode).to.equal(500);
    expect(verbose.message).to.have.length(2_001);
    const started = Date.now();
    const impatient = runnerOf([], { timeoutMs: 200 }).delivery;
    expect(await impatient.runner.run(webhook('/hang'), 'entry.create')).to.deep.equal({
      statusCode: 500,
      message: 'no answer within 0.2 s',
    });
    expect(Date.now() - started).to.be.below(2_000);
    const closed = { ...webhook('/x'), url: `http://127.0.0.1:${await closedPort()}/x` };
    const refused = await delivery.runner.run(closed, 'entry.create');
    expect(refused.statusCode).to.equal(500);
    expect(refused.message).to.match(/ECONNREFUSED/);
  });

  it('posts a queued event to every enabled webhook listening to it, at most 5 events at a time', async () => {
    const { delivery } = runnerOf([
      webhook('/held'),
      webhook('/off', ['entry.create'], false),
      webhook('/other', ['entry.delete']),
    ]);
    for (let i = 0; i < 8; i++) delivery.enqueue('entry.create', { entry: { id: i } });
    await receiver.waitFor('/held', undefined, 5);
    // the five calls are held unanswered: a sixth would arrive meanwhile (this wait can only miss
    // a bug on a slow machine, never fail a correct runner)
    await sleep(200);
    expect(receiver.callsTo('/held')).to.have.length(5);
    receiver.releaseHung();
    await receiver.waitFor('/held', undefined, 8);
    receiver.releaseHung();
    await delivery.idle();
    expect(receiver.callsTo('/held')).to.have.length(8);
    expect(receiver.callsTo('/off')).to.deep.equal([]);
    expect(receiver.callsTo('/other')).to.deep.equal([]);
  });

  it('logs a failed delivery with the name of the webhook, not its url', async () => {
    const { delivery, lines } = runnerOf([webhook('/fail')]);
    delivery.enqueue('entry.create', {});
    await delivery.idle();
    const messages = lines.map((line) => String(line.msg));
    expect(messages).to.deep.equal(['webhook "hook /fail" (id 1) failed for entry.create: 503 down for maintenance']);
  });

  it('drops events past the queue bound, logged, and stops cutting the calls still open', async () => {
    const { delivery, lines } = runnerOf([webhook('/hang')], { concurrency: 1, maxQueued: 2 });
    // the webhooks are read once the first event runs; later ones are queued
    delivery.enqueue('entry.create', {});
    await receiver.waitFor('/hang');
    for (let i = 0; i < 4; i++) delivery.enqueue('entry.create', {});
    expect(lines.map((line) => line.msg)).to.include(
      'webhooks fall behind: more than 2 events wait; new ones are dropped',
    );
    await delivery.stop(50);
    expect(lines.map((line) => line.msg)).to.include(
      'webhooks: 3 event(s) were not delivered before the service stopped',
    );
    delivery.enqueue('entry.create', {});
    await delivery.idle();
    expect(receiver.callsTo('/hang')).to.have.length(1);
  });
});
