// A package the project requires that reads its own files through `require.resolve` (uglify-js reads
// its lib/*.js so, through html-minifier): the path it gets is the file's own, so it loads, and the
// project's code that requires it runs.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { NOTE_HELLO_API, writeFiles } from '../helpers/temp-app.js';

describe('a package that reads its own files through require.resolve', () => {
  it("loads, and the project's controller requiring it answers", async () => {
    const appDir = await mkdtemp(join(tmpdir(), 'cs-package-own-files-'));
    await writeFiles(appDir, {
      ...NOTE_HELLO_API,
      'node_modules/reads-own-files/package.json': JSON.stringify({ name: 'reads-own-files', main: 'index.js' }),
      'node_modules/reads-own-files/index.js': `const fs = require('fs');
const part = require.resolve('./lib/part.js');
module.exports = { text: fs.readFileSync(part, 'utf8').trim(), resolved: part };
`,
      'node_modules/reads-own-files/lib/part.js': '// from the package itself\n',
      'src/api/note/controllers/note.js': `const own = require('reads-own-files');
module.exports = { hello(ctx) { ctx.body = { text: own.text, plainPath: !own.resolved.includes('?') }; } };
`,
      'src/api/note/routes/hello.js':
        "module.exports = { routes: [{ method: 'GET', path: '/hello', handler: 'note.hello' }] };",
    });
    const service = await createTestService({ appDir });
    try {
      const res = await request(service.app).get('/api/hello');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ text: '// from the package itself', plainPath: true });
    } finally {
      await service.close();
    }
  });
});
