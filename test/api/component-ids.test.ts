// Component ids as Strapi 4.26 allocates them: its entity service writes the items of a list
// concurrently and a component after its nested ones, so within a list the components without
// nested data get their ids first; on update the stored nested components are loaded (and the
// dropped ones deleted) before new ones are written. Every id below was recorded from the
// reference Strapi 4.26.2 (SQLite) running the same requests on the same schema.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { componentSchema, writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

interface Seo {
  id: number;
  metaTitle: string;
  metaSocial: { id: number }[];
}
interface Item {
  id: number;
  __component: string;
  metaTitle?: string;
  text?: string;
  metaSocial?: { id: number }[];
}

describe('REST writes: component ids after creates and updates', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      api: {
        gadget: {
          kind: 'collectionType',
          collectionName: 'gadgets',
          info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
          options: { draftAndPublish: false },
          attributes: {
            title: { type: 'string' },
            blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.cta'] },
            deep: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote'] },
            seos: { type: 'component', repeatable: true, component: 'shared.seo' },
          },
        },
      },
      components: {
        'shared.seo': componentSchema('shared.seo', {
          metaTitle: { type: 'string', required: true },
          metaSocial: { type: 'component', repeatable: true, component: 'shared.meta-social' },
        }),
        'shared.meta-social': componentSchema('shared.meta-social', { network: { type: 'string', required: true } }),
        'shared.quote': componentSchema('shared.quote', { text: { type: 'text', required: true } }),
        'shared.cta': componentSchema('shared.cta', { label: { type: 'string', required: true } }),
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
  });
  after(() => service.close());

  const QUERY = 'populate[seos][populate]=*&populate[deep][populate]=*&populate[blocks]=*';
  const social = (...networks: string[]) => networks.map((network) => ({ network }));
  const seos = (body: { data: { attributes: { seos: Seo[] } } }) =>
    body.data.attributes.seos.map((s) => [s.metaTitle, s.id, s.metaSocial.map((m) => m.id)]);
  const write = async (method: 'post' | 'put', path: string, data: object) => {
    const res = await client[method](`${path}?${QUERY}`, { data });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { data: { id: number; attributes: { seos: Seo[]; deep: Item[]; blocks: Item[] } } };
  };

  it('a dynamic zone of flat components: ids in list order, kept ids stay, removed ids are not reused', async () => {
    const created = await write('post', '/api/gadgets', {
      blocks: [
        { __component: 'shared.quote', text: 'q1' },
        { __component: 'shared.cta', label: 'c1' },
        { __component: 'shared.quote', text: 'q2' },
      ],
    });
    const id = created.data.id;
    const ids = (body: Awaited<ReturnType<typeof write>>) =>
      body.data.attributes.blocks.map((b) => [b.__component, b.id]);
    expect(ids(created)).to.deep.equal([
      ['shared.quote', 1],
      ['shared.cta', 1],
      ['shared.quote', 2],
    ]);
    const reordered = await write('put', `/api/gadgets/${id}`, {
      blocks: [
        { __component: 'shared.quote', id: 2, text: 'q2' },
        { __component: 'shared.quote', text: 'q3' },
        { __component: 'shared.cta', label: 'c2' },
        { __component: 'shared.quote', id: 1, text: 'q1' },
      ],
    });
    expect(ids(reordered)).to.deep.equal([
      ['shared.quote', 2],
      ['shared.quote', 3],
      ['shared.cta', 2],
      ['shared.quote', 1],
    ]);
    const replaced = await write('put', `/api/gadgets/${id}`, {
      blocks: [
        { __component: 'shared.quote', text: 'q4' },
        { __component: 'shared.quote', id: 3, text: 'q3' },
        { __component: 'shared.quote', text: 'q5' },
      ],
    });
    expect(ids(replaced)).to.deep.equal([
      ['shared.quote', 4],
      ['shared.quote', 3],
      ['shared.quote', 5],
    ]);
  });

  it('components with nested data get their ids after the ones without', async () => {
    const first = await write('post', '/api/gadgets', {
      seos: [
        { metaTitle: 'A', metaSocial: social('Facebook', 'Twitter') },
        { metaTitle: 'B' },
        { metaTitle: 'C', metaSocial: [] },
        { metaTitle: 'D', metaSocial: social('LinkedIn') },
        { metaTitle: 'E' },
      ],
    });
    expect(seos(first)).to.deep.equal([
      ['A', 4, [1, 2]],
      ['B', 1, []],
      ['C', 2, []],
      ['D', 5, [3]],
      ['E', 3, []],
    ]);
    const second = await write('post', '/api/gadgets', {
      deep: [
        { __component: 'shared.seo', metaTitle: 'A', metaSocial: social('Facebook') },
        { __component: 'shared.quote', text: 'q' },
        { __component: 'shared.seo', metaTitle: 'B' },
        { __component: 'shared.seo', metaTitle: 'C', metaSocial: [] },
      ],
      seos: [{ metaTitle: 'X' }],
    });
    expect(
      second.data.attributes.deep.map((b) => [b.__component, b.id, (b.metaSocial ?? []).map((m) => m.id)]),
    ).to.deep.equal([
      ['shared.seo', 8, [4]],
      ['shared.quote', 6, []],
      ['shared.seo', 6, []],
      ['shared.seo', 7, []],
    ]);
    expect(seos(second)).to.deep.equal([['X', 9, []]]);

    // update: the kept component's new nested ones wait for its stored ones to be loaded and deleted
    const id = first.data.id;
    const third = await write('put', `/api/gadgets/${id}`, {
      seos: [
        { id: 4, metaTitle: 'A', metaSocial: social('Twitter') },
        { metaTitle: 'N', metaSocial: social('Facebook') },
        { metaTitle: 'M' },
      ],
    });
    expect(seos(third)).to.deep.equal([
      ['A', 4, [6]],
      ['N', 11, [5]],
      ['M', 10, []],
    ]);
    const fourth = await write('put', `/api/gadgets/${id}`, {
      seos: [
        { metaTitle: 'P', metaSocial: social('Twitter') },
        { id: 4, metaTitle: 'A', metaSocial: social('LinkedIn', 'Twitter') },
        { metaTitle: 'Q' },
      ],
    });
    expect(seos(fourth)).to.deep.equal([
      ['P', 13, [7]],
      ['A', 4, [8, 9]],
      ['Q', 12, []],
    ]);
  });
});
