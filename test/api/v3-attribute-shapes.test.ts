// A v4 project's schema.json keeping a Strapi v3 attribute (`"model": "file", "plugin": "upload"`,
// `"collection": "tag"`, no `type`): start-up names the attribute and writes the v4 declaration.
import { expect } from 'chai';
import { createTestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

async function startFailure(attributes: Record<string, unknown>): Promise<string> {
  const appDir = await writeTempProject({
    'src/api/about/content-types/about/schema.json': JSON.stringify({
      kind: 'singleType',
      collectionName: 'abouts',
      info: { singularName: 'about', pluralName: 'abouts', displayName: 'About' },
      attributes: { title: { type: 'string' }, ...attributes },
    }),
  });
  try {
    const service = await createTestService({ appDir });
    await service.close();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the service started');
}

describe('a Strapi v3 attribute in a v4 schema', () => {
  it('names v3 media and the v4 media declaration', async () => {
    const message = await startFailure({ image: { model: 'file', via: 'related', plugin: 'upload', required: false } });
    expect(message).to.match(/schema\.json \(attribute "image"\)/);
    expect(message).to.include(
      `"model"/"collection" without "type" is Strapi v3's way to declare media; in v4 write { "type": "media", "multiple": false, "allowedTypes": [...] }`,
    );
  });

  it('names a v3 relation and the v4 relation declaration', async () => {
    const message = await startFailure({ tags: { collection: 'tag' } });
    expect(message).to.match(/\(attribute "tags"\)/);
    expect(message).to.include(`Strapi v3's way to declare a relation; in v4 write { "type": "relation"`);
  });
});
