import { expect } from 'chai';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { asOneLayer } from '../../src/middlewares/chain.js';
import { segmentGate } from '../../src/rest/segment-gate.js';

// The global middlewares as one Express layer, and the plugins' routes behind a gate on their
// first path segment: each answered as the layers Express would run one by one.
describe('request layers: the middlewares as one layer, the plugin routes behind a segment gate', () => {
  type Step = (seen: string[]) => RequestHandler;
  const mark =
    (name: string): Step =>
    (seen) =>
    (_req, _res, next) => {
      seen.push(name);
      next();
    };
  const scenarios: Record<string, Step[]> = {
    'all pass': [mark('a'), mark('b'), mark('c')],
    'one answers': [
      mark('a'),
      (seen) => (_req, res) => void (seen.push('answer'), res.status(201).send('early')),
      mark('c'),
    ],
    'next(error)': [
      mark('a'),
      (seen) => (_req, _res, next) => (seen.push('fails'), next(new Error('boom'))),
      mark('c'),
    ],
    'a throw': [
      mark('a'),
      (seen) => () => {
        seen.push('throws');
        throw new Error('thrown');
      },
      mark('c'),
    ],
    'a rejected promise': [
      mark('a'),
      (seen) => async () => {
        seen.push('rejects');
        await Promise.resolve();
        throw new Error('rejected');
      },
      mark('c'),
    ],
    "next('route')": [mark('a'), (seen) => (_req, _res, next) => (seen.push('route'), next('route')), mark('c')],
    "next('router')": [mark('a'), (seen) => (_req, _res, next) => (seen.push('router'), next('router')), mark('c')],
    'next later': [
      mark('a'),
      (seen) => (_req, _res, next) => void setImmediate(() => (seen.push('later'), next())),
      mark('c'),
    ],
  };

  async function run(steps: Step[], combined: boolean) {
    const seen: string[] = [];
    const app = express();
    const handlers = steps.map((step) => step(seen));
    const inner = Router();
    for (const handler of combined ? asOneLayer(handlers) : handlers) inner.use(handler);
    app.use(inner);
    app.use((_req, res) => void (seen.push('after'), res.send('after')));
    const onError: ErrorRequestHandler = (err: Error, _req, res, _next) =>
      void (seen.push(`error ${err.message}`), res.status(500).send(err.message));
    app.use(onError);
    const res = await request(app).get('/x');
    return { status: res.status, text: res.text, seen };
  }

  for (const [name, steps] of Object.entries(scenarios))
    it(`${name}: as the layers one by one`, async () => {
      const expected = await run(steps, false);
      expect(await run(steps, true)).to.deep.equal(expected);
    });

  it('keeps an error handler among them a layer of its own', () => {
    const onError: ErrorRequestHandler = (_err, _req, _res, next) => next();
    const handlers = [mark('a')([]), onError as unknown as RequestHandler];
    expect(asOneLayer(handlers)).to.have.length(2);
  });

  function appWith(plugin: Router) {
    const app = express();
    const api = Router();
    api.use(segmentGate(plugin));
    api.use((req, res) => void res.send(`content ${req.path}`));
    app.use('/api', api);
    return app;
  }

  it('enters the plugin routes by their first segment, case-insensitively, and leaves the rest to what follows', async () => {
    const plugin = Router();
    plugin.get('/users/:id', (req, res) => void res.send(`user ${req.params.id}`));
    plugin.post('/auth/local', (_req, res) => void res.send('login'));
    const app = appWith(plugin);
    expect((await request(app).get('/api/users/7')).text).to.equal('user 7');
    expect((await request(app).get('/api/USERS/8')).text).to.equal('user 8');
    expect((await request(app).post('/api/auth/local')).text).to.equal('login');
    // a segment of theirs with no route for the method or the rest of the path goes on
    expect((await request(app).get('/api/auth/local')).text).to.equal('content /auth/local');
    expect((await request(app).get('/api/articles/1')).text).to.equal('content /articles/1');
    expect((await request(app).get('/api')).text).to.equal('content /');
  });

  it('enters the plugin routes for every request when one begins with a parameter', async () => {
    const plugin = Router();
    plugin.get('/:anything/special', (req, res) => void res.send(`special ${req.params.anything}`));
    const app = appWith(plugin);
    expect((await request(app).get('/api/articles/special')).text).to.equal('special articles');
    expect((await request(app).get('/api/articles/1')).text).to.equal('content /articles/1');
  });
});
