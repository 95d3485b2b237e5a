import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import request from 'supertest';
import { createServer, type ContentService } from '../../src/app.js';
import { startEngine, type Engine } from '../../src/engine/index.js';
import { PUBLICATION_APP } from '../helpers/fixtures.js';

/** `/_health` pings the database: 200 while it answers, 503 once it is gone; never logged at info. */
describe('GET /_health', () => {
  let engine: Engine;
  let service: ContentService;
  const lines: { level: number; req?: { url?: string } }[] = [];

  before(async () => {
    // an engine of its own, so this suite can stop it
    engine = await startEngine({ host: '127.0.0.1', port: 0 });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as { level: number });
        done();
      },
    });
    service = await createServer({
      appDir: PUBLICATION_APP,
      databaseUri: `${engine.uri}/health`,
      config: { env: 'development' },
      logger: pino({ level: 'trace' }, sink),
    });
  });
  after(async () => {
    await service.stop();
    await engine.stop();
  });

  it('answers 200 while the database answers, and logs the check at debug, other requests at info', async () => {
    const res = await request(service.app).get('/_health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    await request(service.app).get('/api/tags').expect(200);
    const levelOf = (url: string) => lines.find((line) => line.req?.url === url)?.level;
    expect(levelOf('/_health')).to.equal(pino.levels.values.debug);
    expect(levelOf('/api/tags')).to.equal(pino.levels.values.info);
  });

  it('answers 503 in the error shape once the database is gone, within a couple of seconds', async function () {
    this.timeout(15_000);
    await engine.stop();
    const started = Date.now();
    const res = await request(service.app).get('/_health');
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: 'Database unreachable', details: {} },
    });
    expect(Date.now() - started).to.be.below(5_000);
    expect(lines.find((line) => line.req?.url === '/_health' && line.level === pino.levels.values.warn)).to.not.equal(
      undefined,
    );
  });
});
