// A project's files run as CommonJS, as Strapi v4 runs them (its TypeScript compiled to CommonJS):
// `__dirname` is the file's own directory in .ts as in .js, and each service built from the
// project gets its modules fresh while its own files share them.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cs-cjs-project-'));
  await writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'cjs-project', dependencies: { '@strapi/strapi': '4.26.2' } }),
    ...NOTE_HELLO_API,
    'src/api/note/locales/en.json': JSON.stringify({ hello: 'hello from a file' }),
    // TypeScript with ES module syntax, reading a file next to it through __dirname
    'src/api/note/controllers/note.ts': `
      import { readFileSync } from 'fs';
      import { join } from 'path';
      import { loads } from '../../../common/state';
      const locale = JSON.parse(readFileSync(join(__dirname, '../locales/en.json'), 'utf8'));
      export default { hello(ctx) { ctx.body = { ...locale, dir: __dirname, loads: loads() }; } };
    `,
    'src/common/state.ts': `let count = 0; export function loads() { return count; } export function loaded() { count += 1; }`,
    'src/index.ts': `import { loaded } from './common/state'; export default { register() { loaded(); } };`,
    'src/api/note/routes/hello.ts': `export default { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };`,
  });
  return dir;
}

describe("a project's CommonJS modules", () => {
  it('have their own __dirname in TypeScript, and state shared by the files of one service only', async () => {
    const appDir = await project();
    for (let round = 0; round < 2; round++) {
      const service = await createTestService({ appDir });
      try {
        const res = await request(service.app).get('/api/hello').expect(200);
        // loads is 1 both times: the second service's modules start afresh
        expect(res.body).to.deep.equal({
          hello: 'hello from a file',
          dir: join(appDir, 'src', 'api', 'note', 'controllers'),
          loads: 1,
        });
      } finally {
        await service.close();
      }
    }
  });
});
