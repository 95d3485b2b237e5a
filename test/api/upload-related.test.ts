// A file's `related` (Strapi's morph relation read from the media attributes): REST
// `populate=related` on /api/upload/files and GraphQL `UploadFile.related`, with a constant number
// of queries. REST shapes and order recorded from the reference Strapi 4.26.2 (same links on an
// album type with cover, a multiple media, a repeatable component and a dynamic zone); Strapi's
// GraphQL answers `related` with an error ("Missing schema in validateQuery"), here it answers the items.
import { expect } from 'chai';
import request from 'supertest';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { createMediaApp, png, type MediaApp } from '../helpers/media-app.js';

interface Related {
  __type: string;
  id: number;
  [key: string]: unknown;
}

describe('upload plugin: a file’s related entries', () => {
  let media: MediaApp;
  let full: { Authorization: string };
  const files: number[] = [0];
  const albums: number[] = [0];
  before(async () => {
    media = await createMediaApp({}, { graphql: { enabled: true } });
    const image = await png(8, 8);
    for (let i = 1; i <= 3; i++) {
      const res = await request(media.service.app)
        .post('/api/upload')
        .set(media.auth)
        .attach('files', image, `f${i}.png`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      files.push(res.body[0].id as number);
    }
    const bodies = [
      {
        title: 'A',
        cover: files[1],
        photos: [files[2], files[1]],
        figures: [
          { caption: 'f1', image: files[1] },
          { caption: 'f2', image: files[2] },
        ],
        body: [{ __component: 'shared.figure', caption: 'z1', image: files[1] }],
      },
      { title: 'B', photos: [files[1]] },
      { title: 'C', cover: files[2] },
    ];
    for (const data of bodies) {
      const res = await request(media.service.app).post('/api/albums').set(media.auth).send({ data });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      albums.push(res.body.data.id as number);
    }
    const { accessKey } = await createApiToken(media.service.context, { name: 'full', type: 'full-access' });
    full = { Authorization: `Bearer ${accessKey}` };
  });
  after(() => media.service.close());

  const shape = (items: Related[]) =>
    items.map((item) =>
      item.__type === 'shared.figure'
        ? `figure ${String(item.caption)}`
        : `album ${String(item.title)} ${albums.indexOf(item.id)}`,
    );

  it('REST populate=related: one item per link, by position, components first; none: no key', async () => {
    const res = await request(media.service.app).get('/api/upload/files?populate=related&sort=id').set(full);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [first, second, third] = res.body as { id: number; related?: Related[] }[];
    expect(shape(first?.related ?? [])).to.deep.equal([
      'figure f1',
      'figure z1',
      'album A 1',
      'album B 2',
      'album A 1',
    ]);
    expect(shape(second?.related ?? [])).to.deep.equal(['figure f2', 'album A 1', 'album C 3']);
    expect(third).to.not.have.property('related');
    const album = first?.related?.[2];
    expect(Object.keys(album ?? {})).to.deep.equal(['__type', 'id', 'title', 'createdAt', 'updatedAt']);
    expect(album).to.include({ __type: 'api::album.album', id: albums[1], title: 'A' });
    const figure = first?.related?.[0];
    expect(figure).to.deep.equal({ __type: 'shared.figure', id: figure?.id, caption: 'f1' });
    const one = await request(media.service.app).get(`/api/upload/files/${files[2]}?populate[related]=true`).set(full);
    expect(shape(one.body.related)).to.deep.equal(['figure f2', 'album A 1', 'album C 3']);
    const star = await request(media.service.app).get(`/api/upload/files/${files[2]}?populate=*`).set(full);
    expect(shape(star.body.related)).to.deep.equal(['figure f2', 'album A 1', 'album C 3']);
    const none = await request(media.service.app).get(`/api/upload/files/${files[2]}`).set(full);
    expect(none.body).to.not.have.property('related');
  });

  it('only the types the caller may find (components need a full-access token), as Strapi sanitizes', async () => {
    const res = await request(media.service.app).get('/api/upload/files?populate=related&sort=id').set(media.auth);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((res.body as { related?: Related[] }[]).map((file) => shape(file.related ?? []))).to.deep.equal([
      ['album A 1', 'album B 2', 'album A 1'],
      ['album A 1', 'album C 3'],
      [],
    ]);
  });

  it('GraphQL UploadFile.related: the entries and components, each as its type', async () => {
    const res = await request(media.service.app)
      .post('/graphql')
      .set(full)
      .send({
        query: `{ uploadFiles(sort: "id") { data { id attributes { related {
          __typename ... on Album { title cover { data { id } } } ... on ComponentSharedFigure { id caption } } } } } }`,
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const answers = res.body.data.uploadFiles.data as { attributes: { related: Record<string, unknown>[] } }[];
    expect(answers.map((file) => file.attributes.related.map((item) => item.caption ?? item.title))).to.deep.equal([
      ['f1', 'z1', 'A', 'B', 'A'],
      ['f2', 'A', 'C'],
      [],
    ]);
    // the item's own relation and media fields are read from the database, as Strapi's association resolver reads them
    expect(answers[0]?.attributes.related[2]).to.deep.equal({
      __typename: 'Album',
      title: 'A',
      cover: { data: { id: String(files[1]) } },
    });
    expect(answers[0]?.attributes.related[0]).to.deep.include({ __typename: 'ComponentSharedFigure', caption: 'f1' });
    const user = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .send({ query: `{ uploadFile(id: ${files[2]}) { data { attributes { related { __typename } } } } }` });
    expect(user.body.data.uploadFile.data.attributes.related).to.deep.equal([
      { __typename: 'Album' },
      { __typename: 'Album' },
    ]);
  });
});
