// A local plugin whose folder is not named as the plugin (`src/plugins/strapi-plugin-tally`, named
// `tally` by `config/plugins`): its content-types are the ones its server code exports, under
// `plugin::tally.*`, and its schema files read from disk add no second type under the folder's name
// (which would claim the same collection).
import { expect } from 'chai';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const COUNTER = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'counters_of_tally',
  info: { singularName: 'counter', pluralName: 'counters', displayName: 'Counter' },
  options: { draftAndPublish: false },
  attributes: { value: { type: 'integer' } },
});

describe('a local plugin in a folder named otherwise than the plugin', () => {
  it("has its server code's content-types only, under the plugin's name", async () => {
    const appDir = await writeTempProject({
      'config/plugins.js': `module.exports = { tally: { enabled: true, resolve: './src/plugins/strapi-plugin-tally' } };`,
      'src/plugins/strapi-plugin-tally/package.json': JSON.stringify({
        name: 'strapi-plugin-tally',
        strapi: { kind: 'plugin', name: 'tally' },
      }),
      'src/plugins/strapi-plugin-tally/strapi-server.js': "module.exports = require('./server');",
      'src/plugins/strapi-plugin-tally/server/index.js': `
module.exports = { contentTypes: { counter: { schema: require('./content-types/counter/schema.json') } } };
`,
      'src/plugins/strapi-plugin-tally/server/content-types/counter/schema.json': COUNTER,
      'src/api/note/content-types/note/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'notes',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        attributes: { counter: { type: 'relation', relation: 'oneToOne', target: 'plugin::tally.counter' } },
      }),
    });
    const service = await createTestService({ appDir });
    try {
      const uids = service.context.registry.listContentTypes().map((ct) => ct.uid);
      expect(uids).to.include('plugin::tally.counter');
      expect(uids.filter((uid) => uid.endsWith('.counter'))).to.deep.equal(['plugin::tally.counter']);
    } finally {
      await service.close();
    }
  });
});
