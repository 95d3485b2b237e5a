import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

interface Issue {
  path: string[];
  message: string;
  name: string;
}

describe('REST write validation (Strapi v4 messages, nothing written on failure)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
    await client.post('/api/categories', { data: { name: 'Taken', slug: 'taken' } });
    await client.post('/api/author-profiles', { data: { handle: 'taken_handle' } });
  });
  after(() => service.close());

  async function rejected(
    plural: string,
    data: Record<string, unknown>,
    uid: string,
  ): Promise<{ message: string; errors: Issue[] }> {
    const before = await client.count(uid);
    const res = await client.post(`/api/${plural}`, { data });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.data).to.equal(null);
    expect(res.body.error.name).to.equal('ValidationError');
    expect(await client.count(uid), 'nothing written').to.equal(before);
    return { message: res.body.error.message, errors: res.body.error.details.errors ?? [] };
  }

  it("orders errors as yup 0.32 sorts them: an attribute whose name is in another's path ranks with it (Strapi 4.26)", async () => {
    const res = await client.put('/api/homepage', { data: { title: { a: 1 }, subtitle: { a: 1 } } });
    expect(res.status).to.equal(400);
    // `subtitle` contains `title`: both rank first, met by yup from the last field to the first
    expect(res.body.error.details.errors.map((e: Issue) => e.path[0])).to.deep.equal(['subtitle', 'title']);
    const zone = await client.put('/api/homepage', {
      data: { sections: [{ __component: 'blocks.quote', text: 5 }, { __component: '' }], title: 5 },
    });
    expect(
      zone.body.error.details.errors.map((e: Issue) => [e.path.join('.'), e.message.split(' must ')[0]]),
    ).to.deep.equal([
      ['title', 'title'],
      // an empty component name fails the list of values, not `required`
      ['sections.1.__component', 'sections[1].__component'],
      ['sections.0.text', 'sections[0].text'],
      ['', 'Cannot build relations store from dynamiczone, component identifier is undefined'],
    ]);
    expect(zone.body.error.details.errors[1].message).to.match(/must be one of the following values: /);
  });

  it('wrong type (case 348)', async () => {
    const { message, errors } = await rejected('notes', { title: 'bad', score: 'many' }, 'api::note.note');
    const text = 'score must be a `number` type, but the final value was: `NaN` (cast from the value `"many"`).';
    expect(message).to.equal(text);
    expect(errors).to.deep.equal([{ path: ['score'], message: text, name: 'ValidationError' }]);
  });

  it('required', async () => {
    const { errors } = await rejected('notes', { content: 'no title' }, 'api::note.note');
    expect(errors).to.deep.equal([{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }]);
    await rejected('notes', { title: null }, 'api::note.note');
  });

  it('enumeration, email, integer, min', async () => {
    const { message, errors } = await rejected(
      'articles',
      { title: 't', kind: 'gossip', contactEmail: 'not-an-email', readingTime: -3 },
      'api::article.article',
    );
    expect(message).to.equal('3 errors occurred');
    expect(errors.map((e) => e.message)).to.deep.equal([
      'kind must be one of the following values: news, opinion, review, tutorial, ',
      'readingTime must be greater than or equal to 0',
      'contactEmail must be a valid email',
    ]);
    const float = await rejected('notes', { title: 't', score: 1.5 }, 'api::note.note');
    expect(float.errors[0]?.message).to.equal('score must be an integer');
    // yup's number type takes "Infinity": an integer then fails its integer test, and its range
    const infinite = await rejected('notes', { title: 't', score: 'Infinity' }, 'api::note.note');
    expect(infinite.errors.map((e) => e.message)).to.deep.equal(['score must be an integer']);
    const below = await rejected('articles', { title: 't', readingTime: '-Infinity' }, 'api::article.article');
    expect(below.errors.map((e) => e.message)).to.deep.equal([
      'readingTime must be an integer',
      'readingTime must be greater than or equal to 0',
    ]);
  });

  it('an empty email cannot be empty, drafts too (yup min(1), which takes the place of a minLength)', async () => {
    const { message, errors } = await rejected('articles', { title: 't', contactEmail: '' }, 'api::article.article');
    expect(message).to.equal('contactEmail cannot be empty');
    expect(errors).to.deep.equal([
      { path: ['contactEmail'], message: 'contactEmail cannot be empty', name: 'ValidationError' },
    ]);
    const draft = await rejected(
      'articles',
      { title: 't', contactEmail: '', publishedAt: null },
      'api::article.article',
    );
    expect(draft.message).to.equal('contactEmail cannot be empty');
    const author = await rejected('authors', { name: 'a', email: '' }, 'api::author.author');
    expect(author.errors.map((e) => e.path.join('.'))).to.deep.equal(['email']);
  });

  it("a dynamic-zone item naming another entry's component id: Strapi's plain Error, no details; GraphQL an internal error", async () => {
    const created = await client.post('/api/articles', {
      data: { title: 'zone owner', blocks: [{ __component: 'blocks.quote', text: 'kept' }] },
    });
    const id = created.body.data.id as number;
    const before = await client.stored('api::article.article', id);
    const res = await client.put(`/api/articles/${id}`, {
      data: { blocks: [{ id: 999999, __component: 'blocks.quote', text: 'foreign' }] },
    });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      data: null,
      error: {
        status: 400,
        name: 'Error',
        message: 'Some of the provided components in blocks are not related to the entity',
      },
    });
    const gql = await client.post('/graphql', {
      query: `mutation { updateArticle(id: ${id}, data: { blocks: [{ __typename: "ComponentBlocksQuote", id: 999999, text: "x" }] }) { data { id } } }`,
    });
    expect(gql.body).to.deep.equal({
      errors: [{ message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
      data: { updateArticle: null },
    });
    expect(await client.stored('api::article.article', id), 'nothing changed').to.deep.equal(before);
  });

  it("a component naming an id the entry does not have is validated first: its bad values are the answer (Strapi 4.26's order)", async () => {
    const created = await client.post('/api/articles', {
      data: { title: 'owner', seo: { metaTitle: 'kept' }, blocks: [{ __component: 'blocks.cta', label: 'kept' }] },
    });
    const id = created.body.data.id as number;
    const before = await client.stored('api::article.article', id);
    const seo = await client.put(`/api/articles/${id}`, { data: { seo: { id: 999999, metaTitle: null } } });
    expect([seo.status, seo.body.error]).to.deep.equal([
      400,
      {
        status: 400,
        name: 'ValidationError',
        message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.',
        details: {
          errors: [
            {
              path: ['seo', 'metaTitle'],
              message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.',
              name: 'ValidationError',
            },
          ],
        },
      },
    ]);
    const zone = await client.put(`/api/articles/${id}`, {
      data: { blocks: [{ __component: 'blocks.cta', id: 'x', label: ['x'] }] },
    });
    expect([zone.status, zone.body.error?.name, zone.body.error?.details?.errors?.[0]?.path]).to.deep.equal([
      400,
      'ValidationError',
      ['blocks', '0', 'label'],
    ]);
    // valid values: the foreign id is the answer, as before
    const foreign = await client.put(`/api/articles/${id}`, { data: { seo: { id: 999999, metaTitle: 'ok' } } });
    expect([foreign.status, foreign.body.error?.name, foreign.body.error?.message]).to.deep.equal([
      400,
      'ApplicationError',
      'Some of the provided components in seo are not related to the entity',
    ]);
    expect(await client.stored('api::article.article', id), 'nothing changed').to.deep.equal(before);
  });

  it('every scalar type rejects what it cannot cast', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['budget', { name: 'e', budget: '12.5' }],
      ['ticketPrice', { name: 'e', ticketPrice: 'cheap' }],
      ['score', { name: 'e', score: { a: 1 } }],
      ['online', { name: 'e', online: 'maybe' }],
      ['status', { name: 'e', status: 'done' }],
      ['name', { name: ['a'] }],
    ];
    for (const [path, data] of cases) {
      const { errors } = await rejected('events', data, 'api::event.event');
      expect(
        errors.map((e) => e.path.join('.')),
        path,
      ).to.deep.equal([path]);
    }
  });

  it('accepts and casts valid values of every type', async () => {
    const res = await client.post('/api/events', {
      data: {
        name: 'ok',
        day: '2024-03-06',
        startTime: '09:15:00',
        startsAt: '2024-03-06T09:15:00.000Z',
        capacity: '25',
        budget: '1000000007',
        ticketPrice: 4.75,
        score: '1.7',
        online: 'false',
        status: 'planned',
        details: { room: 'R1' },
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const stored = await client.stored('api::event.event', res.body.data.id);
    expect(stored).to.deep.include({
      day: '2024-03-06',
      startTime: '09:15:00.000',
      capacity: 25,
      ticketPrice: 4.75,
      score: 1.7,
      online: false,
      status: 'planned',
      details: { room: 'R1' },
    });
    expect(String(stored?.budget)).to.equal('1000000007');
    expect(res.body.data.attributes.budget).to.equal('1000000007');
  });

  it('unique attributes', async () => {
    const { errors } = await rejected('categories', { name: 'Taken' }, 'api::category.category');
    expect(errors).to.deep.equal([
      { path: ['name'], message: 'This attribute must be unique', name: 'ValidationError' },
    ]);
    await rejected('author-profiles', { handle: 'taken_handle' }, 'api::author-profile.author-profile');
    await rejected('categories', { name: 'Other', slug: 'taken' }, 'api::category.category');
  });

  it("a taken unique value is reported in its attribute's place among the other errors (Strapi 4.26, yup's field order)", async () => {
    const category = await rejected(
      'categories',
      { color: 1, sortOrder: 'x', description: 5, name: 'Taken', articles: [9999] },
      'api::category.category',
    );
    expect(category.message).to.equal('5 errors occurred');
    expect(category.errors.map((e) => [e.path.join('.'), e.message.slice(0, 30)])).to.deep.equal([
      ['name', 'This attribute must be unique'],
      ['description', 'description must be a `string`'],
      ['sortOrder', 'sortOrder must be a `number` t'],
      ['color', 'color must be one of the follo'],
      ['', '1 relation(s) of type api::art'],
    ]);
    const profile = await rejected(
      'author-profiles',
      { verified: 'x', handle: 'taken_handle', followers: 'x' },
      'api::author-profile.author-profile',
    );
    expect(profile.errors.map((e) => e.path.join('.'))).to.deep.equal(['handle', 'followers', 'verified']);
  });

  it('an empty string is a unique value like any other: checked before the write, beside the other errors, no id used up', async () => {
    const first = await client.post('/api/categories', { data: { name: 'Empty slug one', slug: '' } });
    expect(first.status).to.equal(200);
    const again = await rejected(
      'categories',
      { name: 'Empty slug two', slug: '', sortOrder: 'x' },
      'api::category.category',
    );
    expect(again.errors.map((e) => [e.path.join('.'), e.message.slice(0, 29)])).to.deep.equal([
      ['slug', 'This attribute must be unique'],
      ['sortOrder', 'sortOrder must be a `number` '],
    ]);
    await rejected('categories', { name: 'Empty slug three', slug: '' }, 'api::category.category');
    // Strapi's ids follow on: the refused creates took none
    const next = await client.post('/api/categories', { data: { name: 'After the refusals' } });
    expect(next.body.data.id).to.equal((first.body.data.id as number) + 1);
  });

  it('concurrent writes of one unique value: one wins, the others are 400s (never 500s)', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/api/categories', { data: { name: 'Raced' } })),
    );
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 400, 400, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) {
      expect(res.body.error.details.errors[0]).to.deep.equal({
        path: ['name'],
        message: 'This attribute must be unique',
        name: 'ValidationError',
      });
    }
    expect(await client.count('api::category.category', { name: 'Raced' })).to.equal(1);
  });

  it('a uid is unique across locales, as Strapi 4.26 checks it', async () => {
    const en = await client.post('/api/articles', { data: { title: 'Same', slug: 'same-slug' } });
    expect(en.status).to.equal(200);
    await rejected('articles', { title: 'Same', slug: 'same-slug' }, 'api::article.article');
    const fr = await client.post('/api/articles', { data: { title: 'Same', slug: 'same-slug', locale: 'fr' } });
    expect(fr.status, JSON.stringify(fr.body)).to.equal(400);
    expect(fr.body.error.details.errors).to.deep.equal([
      { path: ['slug'], message: 'This attribute must be unique', name: 'ValidationError' },
    ]);
  });

  it('components and dynamic zones', async () => {
    const seo = await rejected(
      'articles',
      { title: 't', seo: { metaDescription: 'no title', metaSocial: [{ network: 'Myspace' }] } },
      'api::article.article',
    );
    expect(seo.errors.map((e) => [e.path.join('.'), e.message])).to.deep.equal([
      ['seo.metaTitle', 'seo.metaTitle must be defined.'],
      [
        'seo.metaSocial.0.network',
        'seo.metaSocial[0].network must be one of the following values: Facebook, Twitter, LinkedIn, ',
      ],
    ]);
    const notObject = await rejected('articles', { title: 't', seo: 'x' }, 'api::article.article');
    expect(notObject.errors[0]?.path).to.deep.equal(['seo']);
    const notArray = await rejected('articles', { title: 't', links: { label: 'x' } }, 'api::article.article');
    expect(notArray.errors[0]?.path).to.deep.equal(['links']);
    const dz = await rejected(
      'articles',
      {
        title: 't',
        blocks: [{ __component: 'shared.link', label: 'x' }, { text: 'q' }, { __component: 'blocks.quote' }],
      },
      'api::article.article',
    );
    expect(dz.errors.map((e) => e.path.join('.'))).to.deep.equal([
      'blocks.0.__component',
      'blocks.1.__component',
      'blocks.2.text',
      '',
    ]);
    // an item without __component: Strapi's required message, and its relation check cannot run
    expect(dz.errors[1]?.message).to.equal('blocks[1].__component is a required field');
    expect(dz.errors[3]?.message).to.equal(
      'Cannot build relations store from dynamiczone, component identifier is undefined',
    );
    expect(dz.errors[0]?.message).to.equal(
      'blocks[0].__component must be one of the following values: blocks.quote, blocks.rich-text, blocks.cta',
    );
  });

  it('drafts skip required attributes', async () => {
    const res = await client.post('/api/articles', { data: { publishedAt: null, seo: { keywords: 'k' } } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await rejected('articles', { summary: 'published without title' }, 'api::article.article');
  });

  it('no component ids are used up by a failed request', async () => {
    const first = await client.post('/api/articles', { data: { title: 'c1', links: [{ label: 'a' }] } });
    await rejected('articles', { title: 't', links: [{ label: 'b' }], kind: 'bad' }, 'api::article.article');
    const second = await client.post('/api/articles', { data: { title: 'c2', links: [{ label: 'c' }] } });
    const a = (await client.stored('api::article.article', first.body.data.id))?.links as { id: number }[];
    const b = (await client.stored('api::article.article', second.body.data.id))?.links as { id: number }[];
    expect(b[0]?.id).to.equal((a[0]?.id ?? 0) + 1);
  });
});

describe('REST write validation: options the fixture does not use (lengths, regex, ranges, counts)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      components: {
        'parts.line': {
          collectionName: 'components_parts_lines',
          info: { displayName: 'line' },
          attributes: { text: { type: 'string', required: true } },
        },
      },
      api: {
        form: {
          kind: 'collectionType',
          collectionName: 'forms',
          info: { singularName: 'form', pluralName: 'forms', displayName: 'Form' },
          options: { draftAndPublish: false },
          attributes: {
            code: { type: 'string', minLength: 2, maxLength: 4, regex: '^[A-Z]+$' },
            level: { type: 'integer', min: 1, max: 5 },
            big: { type: 'biginteger', min: '0', max: '11' },
            stock: { type: 'integer', min: '0', max: '10' },
            ratio: { type: 'float', min: 0.5, max: '1' },
            header: { type: 'component', component: 'parts.line', required: true },
            lines: { type: 'component', component: 'parts.line', repeatable: true, min: 1, max: 2 },
            at: { type: 'timestamp' },
          },
        },
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
  });
  after(() => service.close());

  async function errorsOf(data: Record<string, unknown>): Promise<string[]> {
    const res = await client.post('/api/forms', { data });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(await client.count('api::form.form')).to.equal(0);
    return (res.body.error.details.errors as Issue[]).map((e) => e.message);
  }

  const valid = { header: { text: 'h' }, lines: [{ text: 'a' }] };

  it('lengths, regex, ranges', async () => {
    expect(await errorsOf({ ...valid, code: 'a' })).to.deep.equal([
      'code must be at least 2 characters',
      'code must match the following: "/^[A-Z]+$/"',
    ]);
    expect(await errorsOf({ ...valid, code: 'ABCDE' })).to.deep.equal(['code must be at most 4 characters']);
    expect(await errorsOf({ ...valid, level: 0 })).to.deep.equal(['level must be greater than or equal to 1']);
    expect(await errorsOf({ ...valid, level: 6 })).to.deep.equal(['level must be less than or equal to 5']);
    const at = await client.post('/api/forms', { data: { ...valid, at: 'noon' } });
    expect(at.body.error).to.deep.equal({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid format, expected a timestamp or an ISO date',
      details: {},
    });
  });

  it('required components and repeatable counts', async () => {
    expect(await errorsOf({ lines: [{ text: 'a' }] })).to.deep.equal(['header must be defined.']);
    expect(await errorsOf({ header: { text: 'h' }, lines: null })).to.deep.equal([
      'lines must be a `array` type, but the final value was: `null`.',
    ]);
    expect(
      await errorsOf({ header: { text: 'h' }, lines: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] }),
    ).to.deep.equal(['lines field must have less than or equal to 2 items']);
    expect(await errorsOf({ header: {}, lines: [{}] })).to.deep.equal([
      'header.text must be defined.',
      'lines[0].text must be defined.',
    ]);
  });

  it('checks no range Strapi 4.26 leaves out: a biginteger, bounds written as text', async () => {
    // the content-type builder writes a biginteger's bounds as text; Strapi checks neither them nor
    // an integer's or a float's text bounds (only its admin panel's form does)
    expect(await errorsOf({ ...valid, ratio: 0.25 })).to.deep.equal(['ratio must be greater than or equal to 0.5']);
    const res = await client.post('/api/forms', {
      data: { ...valid, big: '01234567890', stock: 11, ratio: 3 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes).to.include({ big: '1234567890', stock: 11, ratio: 3 });
  });

  it('stores a valid entry (biginteger beyond 2^53 exactly)', async () => {
    const res = await client.post('/api/forms', {
      data: { ...valid, code: 'AB', level: 3, big: '9007199254740993', at: '2024-01-01T00:00:00.000Z' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.attributes.big).to.equal('9007199254740993');
  });
});
