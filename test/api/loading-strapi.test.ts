// The global `strapi` while a project's files load: Strapi sets it before requiring them, so a
// controller may read strapi.config or strapi.log at its top level.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

async function project(controller: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-loading-strapi-'));
  await writeFiles(dir, {
    'config/api.js': `module.exports = { rest: { defaultLimit: 7 } };`,
    ...NOTE_HELLO_API,
    'src/api/note/controllers/note.js': controller,
    'src/api/note/routes/hello.js': `module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };`,
  });
  return dir;
}

describe("the global strapi while a project's files load", () => {
  it('offers strapi.config, strapi.log and strapi.dirs at a module top level', async () => {
    const appDir = await project(`
      const limit = strapi.config.get('api.rest.defaultLimit');
      const src = strapi.dirs.app.src;
      strapi.log.info('note controller loaded');
      module.exports = { hello(ctx) { ctx.body = { limit, src, now: typeof strapi.entityService.findMany }; } };
    `);
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir, logger });
    try {
      const res = await request(service.app).get('/api/hello').expect(200);
      // inside the action the global is the built strapi object
      expect(res.body).to.deep.equal({ limit: 7, src: join(appDir, 'src'), now: 'function' });
      expect(lines.map((l) => l.msg)).to.include('note controller loaded');
    } finally {
      await service.close();
    }
  });

  it('says why when a module reads what exists only once the service is built', async () => {
    const appDir = await project(`
      const notes = strapi.service('api::note.note');
      module.exports = { hello(ctx) { ctx.body = notes; } };
    `);
    const { logger, lines } = capturingLogger();
    const failed = await createTestService({ appDir, logger }).catch((err: Error) => err);
    if (!(failed instanceof Error)) await failed.close();
    const told = lines.filter((l) => l.level === WARN).map((l) => l.msg ?? '');
    expect(told.some((m) => m.includes("strapi.service was read while the app's files load"))).to.equal(
      true,
      told.join('\n'),
    );
  });
});
