// Write errors worded and ordered as Strapi 4.26 reports them: dates, times and datetimes are
// refused by its database layer (a 400 with the converter's message, no details), after the
// validator's issues and in the order its writes meet them; the issues of a list of components
// come in the order yup finishes its items. Expected answers recorded from the reference Strapi 4.26.2.
import { expect } from 'chai';
import { createTestService, type TestService } from '../helpers/server.js';
import { collectionTypeSchema, writeTempApp } from '../helpers/temp-app.js';
import { writeClient, type WriteClient } from '../helpers/write-client.js';

interface Issue {
  path: string[];
  message: string;
}

const storageError = (message: string) => ({ status: 400, name: 'ValidationError', message, details: {} });

describe('REST write messages: dates, times, list order (Strapi 4.26 wording)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    service = await createTestService();
    client = await writeClient(service);
  });
  after(() => service.close());

  async function refused(method: 'post' | 'put', url: string, data: Record<string, unknown>, uid: string) {
    const before = await client.count(uid);
    const res = await client[method](url, { data });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.data).to.equal(null);
    expect(await client.count(uid), 'nothing written').to.equal(before);
    return res.body.error as { message: string; details: { errors?: Issue[] } };
  }
  const issuesOf = (error: { details: { errors?: Issue[] } }) =>
    (error.details.errors ?? []).map((e) => `${e.path.join('.')}: ${e.message}`);

  it('malformed dates, times and datetimes: the database layer’s message, no details', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ day: '2024-13-01' }, 'Invalid format, expected yyyy-MM-dd'],
      [{ day: '2024-02-30' }, 'Invalid date'],
      [{ day: '2024-1-1' }, 'Invalid format, expected yyyy-MM-dd'],
      [{ startTime: '25:00:00' }, 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ startTime: '09:15' }, 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ startTime: 12 }, 'Expected a string, got a number'],
      [{ startsAt: 'nope' }, 'Invalid format, expected a timestamp or an ISO date'],
      [{ publishedAt: 'nope' }, 'Invalid format, expected a timestamp or an ISO date'],
      // the entry's attributes are converted in schema order
      [{ startsAt: 'nope', day: 'nope' }, 'Invalid format, expected yyyy-MM-dd'],
    ];
    for (const [data, message] of cases) {
      const error = await refused('post', '/api/events', { name: 'e', ...data }, 'api::event.event');
      expect(error, JSON.stringify(data)).to.deep.equal(storageError(message));
    }
    // the validator's issues come first
    const both = await refused('post', '/api/events', { name: 'e', day: 'x', status: 'zzz' }, 'api::event.event');
    expect(issuesOf(both)).to.deep.equal([
      'status: status must be one of the following values: planned, confirmed, cancelled, ',
    ]);
  });

  it('valid forms are stored as Strapi stores them, on create and update', async () => {
    const created = await client.post('/api/events', {
      data: { name: 'ok', day: '2024-01-05T10:00:00Z', startTime: '09:15:00.5', startsAt: 1718161980000 },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.data.attributes).to.include({
      day: '2024-01-05',
      startTime: '09:15:00.500',
      startsAt: '2024-06-12T03:13:00.000Z',
    });
    const id = created.body.data.id as number;
    const error = await refused('put', `/api/events/${id}`, { day: '2024-1-1' }, 'api::event.event');
    expect(error).to.deep.equal(storageError('Invalid format, expected yyyy-MM-dd'));
    expect((await client.get(`/api/events/${id}`)).body.data.attributes.day).to.equal('2024-01-05');
    const nulled = await refused('put', `/api/events/${id}`, { name: null }, 'api::event.event');
    expect(issuesOf(nulled)).to.deep.equal(['name: name must be a `string` type, but the final value was: `null`.']);
  });

  it('strings are not cast; objects are printed as yup prints them', async () => {
    const error = await refused(
      'post',
      '/api/articles',
      { title: 12, links: [{ label: { a: 1 } }] },
      'api::article.article',
    );
    expect(issuesOf(error)).to.deep.equal([
      'title: title must be a `string` type, but the final value was: `12`.',
      'links.0.label: links[0].label must be a `string` type, but the final value was: `{\n  "a": "1"\n}`.',
    ]);
  });

  it('a list reports the items yup finishes first first; the relations check of the entry last', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [
        { blocks: [{ text: 'a' }, { __component: 'blocks.nope' }] },
        [
          // every component of the app, in the order Strapi 4.26's loader globs their files (reverse names)
          'blocks.1.__component: blocks[1].__component must be one of the following values: shared.seo, shared.meta-social, shared.link, shared.address, blocks.rich-text, blocks.quote, blocks.cta',
          'blocks.0.__component: blocks[0].__component is a required field',
          ': Cannot build relations store from dynamiczone, component identifier is undefined',
        ],
      ],
      [
        { blocks: [{ __component: 'blocks.quote' }, { text: 'a' }] },
        [
          'blocks.0.text: blocks[0].text must be defined.',
          'blocks.1.__component: blocks[1].__component is a required field',
          ': Cannot build relations store from dynamiczone, component identifier is undefined',
        ],
      ],
      [
        { blocks: 'abc' },
        [
          'blocks: blocks must be a `array` type, but the final value was: `"abc"`.',
          ': Cannot build relations store from dynamiczone, component identifier is undefined',
        ],
      ],
      [
        {
          blocks: [{ __component: 'blocks.cta', label: 'l', style: 'zzz' }, 'abc', { text: 'x' }],
          links: [{ url: 'u' }, { label: 5 }],
        },
        [
          'links.1.label: links[1].label must be a `string` type, but the final value was: `5`.',
          'links.0.label: links[0].label must be defined.',
          'blocks.1: blocks[1] must be a `object` type, but the final value was: `null` (cast from the value `"abc"`).',
          'blocks.0.style: blocks[0].style must be one of the following values: primary, secondary, ',
          'blocks.2.__component: blocks[2].__component is a required field',
          ': Invalid relations',
        ],
      ],
      [
        { links: [{ url: 'u' }, 'abc'] },
        [
          'links.1: links[1] must be a `object` type, but the final value was: `null` (cast from the value `"abc"`).',
          'links.0.label: links[0].label must be defined.',
        ],
      ],
      [{ links: null }, ['links: links must be a `array` type, but the final value was: `null`.']],
    ];
    for (const [data, expected] of cases) {
      const error = await refused('post', '/api/articles', { title: 't', ...data }, 'api::article.article');
      expect(issuesOf(error), JSON.stringify(data)).to.deep.equal(expected);
    }
  });
});

describe('REST write messages: conversions met while writing components (Strapi 4.26 order)', () => {
  let service: TestService;
  let client: WriteClient;
  before(async () => {
    const dir = await writeTempApp({
      components: {
        'probe.inner': {
          collectionName: 'components_probe_inners',
          info: { displayName: 'inner' },
          attributes: { day: { type: 'date' }, n: { type: 'integer' } },
        },
        'probe.when': {
          collectionName: 'components_probe_whens',
          info: { displayName: 'when' },
          attributes: {
            label: { type: 'string' },
            day: { type: 'date' },
            at: { type: 'time' },
            inner: { type: 'component', component: 'probe.inner' },
          },
        },
      },
      api: {
        probe: collectionTypeSchema('probe', 'probes', {
          comp: { type: 'component', component: 'probe.when' },
          d: { type: 'date' },
          t: { type: 'time' },
          dt: { type: 'datetime' },
          whens: { type: 'component', component: 'probe.when', repeatable: true },
          zone: { type: 'dynamiczone', components: ['probe.when'] },
        }),
      },
    });
    service = await createTestService({ appDir: dir });
    client = await writeClient(service);
  });
  after(() => service.close());

  it('components are written before the entry, nested ones first, in schema and list order', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ comp: { day: 'bad' }, d: 'bad2' }, 'Invalid format, expected yyyy-MM-dd'],
      [{ comp: { day: '2024-01-01', inner: { day: '2024-02-30' }, at: 'x' } }, 'Invalid date'],
      [{ whens: [{ at: '25:00:00' }, { day: '2024-02-30' }], d: 'bad' }, 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ t: 'bad', d: 'bad' }, 'Invalid format, expected yyyy-MM-dd'],
      [
        { zone: [{ __component: 'probe.when', at: '9' }], whens: [{ day: 'x' }] },
        'Invalid format, expected yyyy-MM-dd',
      ],
      [{ dt: 'nope', zone: [{ __component: 'probe.when', at: '9' }] }, 'Invalid time format, expected HH:mm:ss.SSS'],
    ];
    for (const [data, message] of cases) {
      const res = await client.post('/api/probes', { data });
      expect(res.status, JSON.stringify(data)).to.equal(400);
      expect(res.body.error, JSON.stringify(data)).to.deep.equal(storageError(message));
      expect(await client.count('api::probe.probe')).to.equal(0);
    }
  });
});
