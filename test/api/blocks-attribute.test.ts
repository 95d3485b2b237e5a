import { expect } from 'chai';
import request from 'supertest';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempProject } from '../helpers/temp-app.js';

/**
 * A `blocks` attribute (Strapi 4.15+ rich text) checked as Strapi 4.26's blocks validator checks
 * it: each node's kind and its own fields, with yup's paths and messages (answers recorded on a
 * Strapi 4.26.2 app with the same type).
 */
const PROJECT = {
  'package.json': JSON.stringify({ name: 'blocks-attribute', dependencies: {} }),
  'config/permissions.json': JSON.stringify({
    public: ['api::page.page.find', 'api::page.page.findOne', 'api::page.page.create'],
  }),
  'src/api/page/content-types/page/schema.json': JSON.stringify(
    collectionTypeSchema('page', 'pages', { title: { type: 'string' }, content: { type: 'blocks' } }),
  ),
};

describe('blocks attribute: writes checked as Strapi 4.26 checks them', () => {
  let service: TestService;
  before(async () => {
    service = await createTestService({ appDir: await writeTempProject(PROJECT) });
  });
  after(() => service.close());

  const create = (content: unknown) =>
    request(service.app)
      .post('/api/pages')
      .send({ data: { title: 't', content } });
  const refusal = async (content: unknown) => {
    const res = await create(content);
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    return res.body.error as { message: string; details: { errors: { path: string[]; message: string }[] } };
  };
  const pages = () => service.context.connection.collection('pages').countDocuments();

  it('stores a valid document as sent', async () => {
    const content = [
      { type: 'paragraph', children: [{ type: 'text', text: 'a', bold: true }] },
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'h' }] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'i' }] }] },
      { type: 'paragraph', children: [{ type: 'link', url: '/x', children: [{ type: 'text', text: '' }] }] },
    ];
    const res = await create(content).expect(200);
    expect(res.body.data.attributes.content).to.deep.equal(content);
  });

  it("filters a blocks attribute as its JSON text, as Strapi 4.26 filters and sorts it (like json's)", async () => {
    const ids = async (query: string) =>
      ((await request(service.app).get(`/api/pages?${query}&sort=id`).expect(200)).body.data as { id: number }[]).map(
        (entry) => entry.id,
      );
    const plain = (await create([{ type: 'paragraph', children: [{ type: 'text', text: 'plain words' }] }]).expect(200))
      .body.data.id as number;
    const empty = (
      await request(service.app)
        .post('/api/pages')
        .send({ data: { title: 'none' } })
        .expect(200)
    ).body.data.id as number;
    expect(await ids('filters[content][$contains]=plain%20words')).to.deep.equal([plain]);
    expect(await ids('filters[content][$containsi]=PLAIN')).to.deep.equal([plain]);
    expect(await ids('filters[content][$startsWith]=%5B%7B%22type')).to.include(plain);
    expect(await ids('filters[content][$null]=true')).to.deep.equal([empty]);
    expect(await ids('filters[content][$notContains]=plain')).to.not.include(plain);
  });

  it("refuses a node of no known kind with Strapi's message, and a node without its children", async () => {
    const before = await pages();
    expect((await refusal([{ type: 'nope' }])).details.errors).to.deep.equal([
      { path: ['content', '0'], message: 'Block node is of invalid type', name: 'ValidationError' },
    ]);
    expect((await refusal([{ type: 'paragraph' }])).message).to.equal('content[0].children is a required field');
    expect((await refusal([{ type: 'paragraph', children: 'x' }])).message).to.equal(
      'content[0].children must be a `array` type, but the final value was: `null` (cast from the value `"x"`).',
    );
    expect((await refusal([{ type: 'list', format: 'ordered', children: [] }])).message).to.equal(
      'List node children must have at least one ListItem or ListNode',
    );
    expect(await pages()).to.equal(before);
  });

  it('reports every problem of the nodes, the shallower first, as Strapi 4.26 lists them', async () => {
    const heading = await refusal([{ type: 'heading', level: 'x', children: [{ type: 'text', text: 'h' }] }]);
    expect(heading.details.errors.map((e) => e.message)).to.deep.equal([
      'content[0].level must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).',
      'content[0].level must be one of the following values: 1, 2, 3, 4, 5, 6',
    ]);
    const link = await refusal([
      { type: 'paragraph', children: [{ type: 'link', url: '', children: [{ type: 'link' }] }] },
    ]);
    expect(link.details.errors.map((e) => [e.path.join('.'), e.message])).to.deep.equal([
      ['content.0.children.0.url', 'Please specify a valid link.'],
      [
        'content.0.children.0.children.0.type',
        'content[0].children[0].children[0].type must be one of the following values: text',
      ],
      ['content.0.children.0.children.0.text', 'Text must be defined with at least an empty string'],
    ]);
    const inline = await refusal([
      { type: 'paragraph', children: [{ type: 'text', text: 'a', bold: 'x' }, { type: 'span' }] },
    ]);
    expect(inline.details.errors.map((e) => e.message)).to.deep.equal([
      'Inline node must be Text or Link',
      'content[0].children[0].bold must be a `boolean` type, but the final value was: `"x"`.',
    ]);
    const image = await refusal([{ type: 'image', children: [] }]);
    expect(image.message).to.equal('12 errors occurred');
    expect(image.details.errors[0]).to.deep.include({
      path: ['content', '0', 'image', 'name'],
      message: 'content[0].image.name is a required field',
    });
  });
});
