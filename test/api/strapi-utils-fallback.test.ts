// A project whose files require `@strapi/utils` without having it installed (its dependencies left
// behind when it moved here): the service's own copy answers, and its errors answer as Strapi's.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

describe('@strapi/utils required by a project that does not install it', () => {
  it('resolves to the service’s copy: the project starts, and its errors answer with their status', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-strapi-utils-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'no-deps', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/api/note/controllers/note.js': `
        const { errors } = require('@strapi/utils');
        const { ApplicationError } = require('@strapi/utils').errors;
        module.exports = {
          hello(ctx) {
            if (ctx.query.fail === 'app') throw new ApplicationError('No hello today', { when: 'now' });
            if (ctx.query.fail === 'missing') throw new errors.NotFoundError('No such hello');
            ctx.body = { hello: typeof errors.ValidationError };
          },
        };
      `,
      'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };`,
    });
    const service = await createTestService({ appDir });
    try {
      expect((await request(service.app).get('/api/hello').expect(200)).body).to.deep.equal({ hello: 'function' });
      const failed = await request(service.app).get('/api/hello?fail=app').expect(400);
      expect(failed.body).to.deep.equal({
        data: null,
        error: { status: 400, name: 'ApplicationError', message: 'No hello today', details: { when: 'now' } },
      });
      const missing = await request(service.app).get('/api/hello?fail=missing').expect(404);
      expect(missing.body.error).to.include({ status: 404, name: 'NotFoundError', message: 'No such hello' });
    } finally {
      await service.close();
    }
  });
});

describe('@strapi/utils/lib, the entry of the first 4.x releases', () => {
  it('is the package itself, and a file of an older release it lacks fails as not installed (no endless look-up)', async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-strapi-utils-lib-'));
    await writeFiles(appDir, {
      'package.json': JSON.stringify({ name: 'early-v4', dependencies: {} }),
      ...NOTE_HELLO_API,
      'src/api/note/controllers/note.js': `
        const { errors } = require('@strapi/utils/lib');
        module.exports = {
          hello(ctx) {
            if (ctx.query.fail) throw new errors.NotFoundError('No such note');
            let older = 'resolved';
            try {
              require.resolve('@strapi/utils/lib/an-old-file');
            } catch (err) {
              older = err.code;
            }
            ctx.body = { older };
          },
        };
      `,
      'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };`,
    });
    const service = await createTestService({ appDir });
    try {
      expect((await request(service.app).get('/api/hello').expect(200)).body).to.deep.equal({
        older: 'MODULE_NOT_FOUND',
      });
      const missing = await request(service.app).get('/api/hello?fail=1').expect(404);
      expect(missing.body.error).to.include({ status: 404, name: 'NotFoundError', message: 'No such note' });
    } finally {
      await service.close();
    }
  });
});
