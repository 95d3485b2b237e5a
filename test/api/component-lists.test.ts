// Lists of components (repeatable components, dynamic zones) as Strapi 4.26's entity validator
// reads them: a non-required list with `min` accepts an empty list, `null` is never a list, a
// required list is required in drafts too. Messages and statuses recorded from the reference
// Strapi 4.26.2 on the same schema.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { componentSchema, writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

const GADGET = 'api::gadget.gadget';

describe('REST writes: lists of components (min, null, required)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        gadget: {
          kind: 'collectionType',
          collectionName: 'gadgets',
          info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
          options: { draftAndPublish: true },
          attributes: {
            title: { type: 'string' },
            parts: { type: 'component', repeatable: true, component: 'parts.link', min: 2, max: 4 },
            requiredParts: { type: 'component', repeatable: true, component: 'parts.link', min: 1, required: true },
            zone: { type: 'dynamiczone', components: ['parts.quote', 'parts.link'], min: 2 },
            requiredZone: { type: 'dynamiczone', components: ['parts.quote', 'parts.link'], min: 1, required: true },
            seo: { type: 'component', repeatable: false, component: 'parts.quote' },
          },
        },
      },
      components: {
        'parts.link': componentSchema('parts.link', { label: { type: 'string', required: true } }),
        'parts.quote': componentSchema('parts.quote', { text: { type: 'text', required: true } }),
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
  });
  after(() => service.close());

  const required = {
    requiredParts: [{ label: 'x' }],
    requiredZone: [{ __component: 'parts.quote', text: 'q' }],
  };
  const arrayMessage = (name: string) => `${name} must be a \`array\` type, but the final value was: \`null\`.`;

  async function errors(method: 'post' | 'put', path: string, data: object): Promise<[string, string][]> {
    const before = await client.count(GADGET);
    const res = await client[method](path, { data });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error.name).to.equal('ValidationError');
    expect(await client.count(GADGET)).to.equal(before);
    return (res.body.error.details.errors as { path: string[]; message: string }[]).map((e) => [
      e.path.join('.'),
      e.message,
    ]);
  }

  describe('create', () => {
    it('a non-required list with min accepts an empty list', async () => {
      const res = await client.post('/api/gadgets', { data: { title: 'a', ...required, parts: [], zone: [] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const stored = await client.stored(GADGET, res.body.data.id);
      expect(stored?.parts ?? []).to.deep.equal([]);
    });

    it('null is not a list (repeatable component and dynamic zone)', async () => {
      expect(await errors('post', '/api/gadgets', { ...required, parts: null })).to.deep.equal([
        ['parts', arrayMessage('parts')],
      ]);
      expect(await errors('post', '/api/gadgets', { ...required, zone: null })).to.deep.equal([
        ['zone', arrayMessage('zone')],
      ]);
    });

    it('min applies to a list that is not empty, or required (drafts included)', async () => {
      expect(
        await errors('post', '/api/gadgets', {
          ...required,
          parts: [{ label: '1' }],
          zone: [{ __component: 'parts.quote', text: 'q' }],
        }),
      ).to.deep.equal([
        ['parts', 'parts field must have at least 2 items'],
        ['zone', 'zone field must have at least 2 items'],
      ]);
      for (const publishedAt of [undefined, null])
        expect(
          await errors('post', '/api/gadgets', { requiredParts: [], requiredZone: [], publishedAt }),
        ).to.deep.equal([
          ['requiredParts', 'requiredParts field must have at least 1 items'],
          ['requiredZone', 'requiredZone field must have at least 1 items'],
        ]);
    });

    it('a required list is required in a draft too; null is not a list there either', async () => {
      expect(await errors('post', '/api/gadgets', { title: 'h', publishedAt: null })).to.deep.equal([
        ['requiredParts', 'requiredParts must be defined.'],
        ['requiredZone', 'requiredZone must be defined.'],
      ]);
      expect(
        await errors('post', '/api/gadgets', { requiredParts: null, requiredZone: null, publishedAt: null }),
      ).to.deep.equal([
        ['requiredParts', arrayMessage('requiredParts')],
        ['requiredZone', arrayMessage('requiredZone')],
      ]);
    });
  });

  describe('update', () => {
    let id: number;
    before(async () => {
      id = (await client.post('/api/gadgets', { data: { title: 'u', ...required } })).body.data.id;
    });

    it('an empty list is accepted, null is not a list', async () => {
      const res = await client.put(`/api/gadgets/${id}`, { data: { parts: [], zone: [] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await errors('put', `/api/gadgets/${id}`, { parts: null })).to.deep.equal([
        ['parts', arrayMessage('parts')],
      ]);
      expect(await errors('put', `/api/gadgets/${id}`, { zone: null })).to.deep.equal([['zone', arrayMessage('zone')]]);
      expect(await errors('put', `/api/gadgets/${id}`, { requiredParts: null })).to.deep.equal([
        ['requiredParts', arrayMessage('requiredParts')],
      ]);
    });

    it('min and max as on create, drafts included; a single component may be null', async () => {
      expect(
        await errors('put', `/api/gadgets/${id}`, {
          parts: [{ label: '1' }],
          zone: [{ __component: 'parts.quote', text: 'q' }],
        }),
      ).to.deep.equal([
        ['parts', 'parts field must have at least 2 items'],
        ['zone', 'zone field must have at least 2 items'],
      ]);
      expect(await errors('put', `/api/gadgets/${id}`, { publishedAt: null, requiredParts: [] })).to.deep.equal([
        ['requiredParts', 'requiredParts field must have at least 1 items'],
      ]);
      expect(
        await errors('put', `/api/gadgets/${id}`, { parts: [1, 2, 3, 4, 5].map((n) => ({ label: `${n}` })) }),
      ).to.deep.equal([['parts', 'parts field must have less than or equal to 4 items']]);
      expect((await client.put(`/api/gadgets/${id}`, { data: { seo: null } })).status).to.equal(200);
    });
  });
});
