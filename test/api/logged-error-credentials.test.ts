// An error from an HTTP client, logged with the 500 it causes, without the client's request: axios
// (which @strapi/provider-email-sendgrid and many plugins call through) hangs the call's `config`
// (headers with the provider's API key, the message's body), `request` and `response` on what it
// throws; the log kept them all, the key in clear. The error here is the test's own, shaped as
// axios's, thrown by a project's controller.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import request from 'supertest';
import { createLogger } from '../../src/logger.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const CONTROLLER = `'use strict';
module.exports = {
  async send() {
    const config = {
      url: '/v3/mail/send',
      baseURL: 'https://api.mail.example',
      headers: { Authorization: 'Bearer SG.very-secret-key', 'Content-Type': 'application/json' },
      data: JSON.stringify({ to: 'someone@example.com' }),
    };
    // as axios throws when the provider's host cannot be reached
    const error = new Error('getaddrinfo ENOTFOUND api.mail.example');
    Object.assign(error, {
      code: 'ENOTFOUND',
      config,
      request: { _header: 'POST /v3/mail/send HTTP/1.1\\r\\nAuthorization: Bearer SG.very-secret-key\\r\\n' },
    });
    throw error;
  },
};
`;

describe('an HTTP client error logged with its 500', () => {
  const saved = process.env.LOG_LEVEL;
  const lines: Array<Record<string, unknown>> = [];
  let service: TestService;
  before(async () => {
    process.env.LOG_LEVEL = 'info';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const appDir = await writeTempProject({
      'src/api/mail/controllers/mail.js': CONTROLLER,
      'src/api/mail/routes/mail.js': `module.exports = { routes: [{ method: 'POST', path: '/mail/send', handler: 'mail.send', config: { auth: false } }] };\n`,
    });
    service = await createTestService({ appDir, logger: createLogger('production', sink) });
  });
  after(async () => {
    await service.close();
    if (saved === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = saved;
  });

  it("keeps the error's message and code, and leaves out the client's request", async () => {
    lines.length = 0;
    const res = await request(service.app).post('/api/mail/send').expect(500);
    expect(res.body.error).to.deep.include({
      status: 500,
      name: 'InternalServerError',
      message: 'Internal Server Error',
    });
    const logged = lines.filter((line) => line.err !== undefined);
    expect(logged).to.not.have.length(0);
    for (const line of logged) {
      expect(line.err).to.include({ message: 'getaddrinfo ENOTFOUND api.mail.example', code: 'ENOTFOUND' });
      expect(line.err).to.not.have.any.keys('config', 'request', 'response');
    }
    expect(JSON.stringify(lines)).to.not.include('very-secret-key');
    expect(JSON.stringify(lines)).to.not.include('someone@example.com');
    expect(logged[0]?.err).to.have.property('stack').that.is.a('string');
  });
});
