import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { createLogger } from '../../src/logger.js';
import { createTestService, type TestService } from '../helpers/server.js';

interface LogLine {
  level: number;
  time: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

describe('strapi::logger: one line per request', () => {
  const saved = process.env.LOG_LEVEL;
  const lines: LogLine[] = [];
  let service: TestService;
  before(async () => {
    process.env.LOG_LEVEL = 'info';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    // outside `test` (where no request is logged), on a stream that is no terminal: JSON lines
    service = await createTestService({ config: { env: 'development' }, logger: createLogger('development', sink) });
  });
  after(async () => {
    await service.close();
    if (saved === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = saved;
  });

  /** The lines of requests logged while `send` ran (each is written once its response is done). */
  async function requestLines(send: () => Promise<unknown>): Promise<LogLine[]> {
    lines.length = 0;
    await send();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return lines.filter((line) => line.req !== undefined);
  }

  it('writes method, the whole URL as sent, status, time and a request id, at info', async () => {
    const [line, ...more] = await requestLines(() =>
      request(service.app).get('/api/articles?pagination[pageSize]=1').expect(200),
    );
    expect(more).to.deep.equal([]);
    expect(line).to.have.keys('level', 'time', 'req', 'res', 'responseTime', 'msg');
    expect(line!.level).to.equal(30);
    expect(line!.msg).to.equal('request completed');
    expect(line!.req).to.have.keys('id', 'method', 'url');
    expect(line!.req).to.include({ method: 'GET', url: '/api/articles?pagination[pageSize]=1' });
    expect(line!.req!.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(line!.res).to.deep.equal({ statusCode: 200 });
    expect(line!.responseTime).to.be.a('number').and.to.be.at.least(0);
  });

  it("takes the client's X-Request-Id, and logs refusals the same way", async () => {
    const [line] = await requestLines(() =>
      request(service.app).get('/api/articles/999999').set('X-Request-Id', 'trace-42').expect(404),
    );
    expect(line!.req).to.deep.equal({ id: 'trace-42', method: 'GET', url: '/api/articles/999999' });
    expect(line!.res).to.deep.equal({ statusCode: 404 });
    expect(line!.msg).to.equal('request completed');
  });

  it('keeps health checks below info', async () => {
    expect(await requestLines(() => request(service.app).get('/_health').expect(200))).to.deep.equal([]);
  });
});
