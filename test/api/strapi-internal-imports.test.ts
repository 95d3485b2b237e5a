// A project file requiring a file inside Strapi (`@strapi/strapi/lib/...`, as some v4 projects reach
// for Strapi's internals) is not told to install @strapi/strapi, which the project already lists:
// start-up names the file it required and what the service offers instead.
import { expect } from 'chai';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const SCHEMA = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'memos',
  info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
  attributes: { title: { type: 'string' } },
});

describe("a project requiring a file inside Strapi's own package", () => {
  it('stops start-up naming the internal file, not asking to install @strapi/strapi', async () => {
    const appDir = await writeTempProject({
      'src/api/memo/content-types/memo/schema.json': SCHEMA,
      'src/index.js': `const { getPaginationInfo } = require('@strapi/strapi/lib/core-api/service/pagination');
module.exports = { register() {}, bootstrap() {} };
`,
    });
    let failure: Error | undefined;
    try {
      const service = await createTestService({ appDir });
      await service.close();
    } catch (err) {
      failure = err as Error;
    }
    expect(failure?.message).to.equal(
      'src/index.js: requires "@strapi/strapi/lib/core-api/service/pagination", a file inside Strapi itself: ' +
        'Content Service answers require("@strapi/strapi") with its factories only; use what the strapi object ' +
        'offers (strapi.entityService, strapi.service(uid)...) or remove what uses it',
    );
  });

  it('still asks to install a package that is not there', async () => {
    const appDir = await writeTempProject({
      'src/api/memo/content-types/memo/schema.json': SCHEMA,
      'src/index.js': `require('not-installed-anywhere-pkg/lib/x');
module.exports = {};
`,
    });
    let failure: Error | undefined;
    try {
      const service = await createTestService({ appDir });
      await service.close();
    } catch (err) {
      failure = err as Error;
    }
    expect(failure?.message).to.match(/requires the package "not-installed-anywhere-pkg", which is not installed/);
  });
});
