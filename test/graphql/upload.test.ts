// The upload plugin through GraphQL: multipart requests (graphql-multipart-request-spec) for
// `upload` and `multipleUpload`, `updateFileInfo`, `removeFile`, the `UploadFile` queries with
// Strapi's scopes, and media fields (also inside components and dynamic zones) in selections.
import { writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { ALBUM_UID, createMediaApp, png, TEXT, type MediaApp } from '../helpers/media-app.js';
import { at, gql } from './helpers.js';

interface Part {
  field: string;
  content: Buffer;
  filename: string;
}

/** A multipart GraphQL request: `operations`, `map`, then the files. */
function multipart(
  media: MediaApp,
  query: string,
  variables: Record<string, unknown>,
  map: Record<string, string[]>,
  files: Part[],
  auth = true,
): request.Test {
  const req = request(media.service.app).post('/graphql');
  if (auth) req.set(media.auth);
  req.field('operations', JSON.stringify({ query, variables })).field('map', JSON.stringify(map));
  for (const file of files) req.attach(file.field, file.content, file.filename);
  return req;
}

interface FileEntity {
  id: string;
  attributes: { name: string; width?: number; height?: number; formats?: Record<string, { width: number }> };
}
interface AlbumRead {
  photos: { data: FileEntity[] };
  cover: { data: FileEntity | null };
  figures: Array<{ image: { data: FileEntity | null } }>;
  body: Array<{ image: { data: FileEntity | null } }>;
}

const UPLOAD = `mutation($file: Upload!, $info: FileInfoInput, $ref: String, $refId: ID, $field: String) {
  upload(file: $file, info: $info, ref: $ref, refId: $refId, field: $field) {
    data { id attributes { name alternativeText caption width height mime ext url hash size formats } }
  }
}`;

describe('upload plugin: GraphQL', function () {
  this.timeout(30_000);
  let media: MediaApp;
  let image: Buffer;

  before(async () => {
    media = await createMediaApp();
    image = await png(800, 400);
  });
  after(() => media.service.close());

  it('upload: a file of a multipart request, with its info; formats as REST', async () => {
    const res = await multipart(
      media,
      UPLOAD,
      { file: null, info: { alternativeText: 'a red box', caption: 'cap' } },
      { 0: ['variables.file'] },
      [{ field: '0', content: image, filename: 'box.png' }],
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const file = res.body.data.upload.data;
    expect(file.attributes).to.include({
      name: 'box.png',
      alternativeText: 'a red box',
      caption: 'cap',
      width: 800,
      height: 400,
      mime: 'image/png',
      ext: '.png',
    });
    expect(Object.keys(file.attributes.formats).sort()).to.deep.equal(['medium', 'small', 'thumbnail']);
    expect(file.attributes.formats.thumbnail).to.include({ width: 245, height: 122 });
    const stored = await readFile(join(media.uploads, `${file.attributes.hash}.png`));
    expect(file.attributes.size).to.equal(Math.round(stored.length / 10) / 100);
  });

  it('multipleUpload, attached to an entry (ref, refId, field), then read through the entry and its components', async () => {
    const rest = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .send({
        data: { title: 'G', figures: [{ caption: 'f' }], body: [{ __component: 'shared.figure', caption: 'z' }] },
      });
    const albumId = String(rest.body.data.id);
    const res = await multipart(
      media,
      `mutation($files: [Upload]!, $ref: String, $refId: ID, $field: String) {
        multipleUpload(files: $files, ref: $ref, refId: $refId, field: $field) { data { id attributes { name mime } } }
      }`,
      { files: [null, null], ref: ALBUM_UID, refId: albumId, field: 'photos' },
      { a: ['variables.files.0'], b: ['variables.files.1'] },
      [
        { field: 'a', content: image, filename: 'one.png' },
        { field: 'b', content: await png(50, 50), filename: 'two.png' },
      ],
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const ids = res.body.data.multipleUpload.map((f: { data: { id: string } }) => f.data.id);
    expect(
      res.body.data.multipleUpload.map((f: { data: { attributes: { name: string } } }) => f.data.attributes.name),
    ).to.deep.equal(['one.png', 'two.png']);

    const stored = (await media.service.context.models
      .collection(ALBUM_UID)
      .findOne({ _id: Number(albumId) as never })) as Record<string, unknown>;
    const figureId = String((stored.figures as Array<{ id: number }>)[0]!.id);
    const zoneId = String((stored.body as Array<{ id: number }>)[0]!.id);
    for (const refId of [figureId, zoneId]) {
      const put = await multipart(
        media,
        UPLOAD,
        { file: null, ref: 'shared.figure', refId, field: 'image' },
        { 0: ['variables.file'] },
        [{ field: '0', content: image, filename: `fig-${refId}.png` }],
      );
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
    }

    const read = await gql(
      media.service,
      `query($id: ID) { album(id: $id) { data { attributes {
        title
        photos { data { id attributes { name url formats } } }
        cover { data { id } }
        figures { caption image { data { attributes { name width height } } } }
        body { ... on ComponentSharedFigure { caption image { data { attributes { name } } } } }
      } } } }`,
      { id: albumId },
    );
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    const a = (read.body.data as { album: { data: { attributes: AlbumRead } } }).album.data.attributes;
    expect(a.photos.data.map((f) => f.id)).to.deep.equal(ids);
    expect(a.photos.data[0]?.attributes.formats?.thumbnail).to.include({ width: 245 });
    expect(a.cover).to.deep.equal({ data: null });
    expect(a.figures[0]?.image.data?.attributes).to.deep.equal({
      name: `fig-${figureId}.png`,
      width: 800,
      height: 400,
    });
    expect(a.body[0]?.image.data?.attributes.name).to.equal(`fig-${zoneId}.png`);
  });

  it('uploadFiles / uploadFile answer with Strapi scopes (the public role may not list files)', async () => {
    const mine = await gql(
      media.service,
      `{ uploadFiles(filters: { mime: { eq: "image/png" } }, sort: ["id:asc"]) { data { id attributes { name } } meta { pagination { total } } } }`,
      undefined,
      media.jwt,
    );
    expect(mine.status, JSON.stringify(mine.body)).to.equal(200);
    const list = (
      mine.body.data as { uploadFiles: { data: Array<{ id: string }>; meta: { pagination: { total: number } } } }
    ).uploadFiles;
    expect(list.data.length).to.be.greaterThan(2);
    expect(list.meta.pagination.total).to.equal(list.data.length);
    const denied = await gql(media.service, `{ uploadFiles { data { id } } }`);
    expect(denied.body.errors?.[0]?.message).to.equal('Forbidden access');
    const one = await gql(
      media.service,
      `query($id: ID) { uploadFile(id: $id) { data { id attributes { name } } } }`,
      { id: list.data[0]!.id },
      media.jwt,
    );
    expect(one.body.data).to.deep.equal({ uploadFile: { data: list.data[0] } });
  });

  it('multipleUpload of an empty list uploads nothing and answers [] (Strapi 4.26)', async () => {
    const count = async () =>
      at(
        (await gql(media.service, '{ uploadFiles { meta { pagination { total } } } }', undefined, media.jwt)).body,
        'data.uploadFiles.meta.pagination.total',
      );
    const before = await count();
    const empty = await gql(
      media.service,
      'mutation { multipleUpload(files: []) { data { id } } }',
      undefined,
      media.jwt,
    );
    expect(empty.body).to.deep.equal({ data: { multipleUpload: [] } });
    expect(await count()).to.equal(before);
  });

  it('a batch of operations in one multipart request (0.variables.file): answers in order (Strapi 4.26)', async () => {
    const upload = 'mutation($file: Upload!) { upload(file: $file) { data { attributes { name } } } }';
    const res = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .field(
        'operations',
        JSON.stringify([
          { query: upload, variables: { file: null } },
          { query: upload, variables: { file: null } },
          { query: '{ __typename }' },
        ]),
      )
      .field('map', JSON.stringify({ 0: ['0.variables.file'], 1: ['1.variables.file'] }))
      .attach('0', TEXT, 'first.txt')
      .attach('1', TEXT, 'second.txt');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal([
      { data: { upload: { data: { attributes: { name: 'first.txt' } } } } },
      { data: { upload: { data: { attributes: { name: 'second.txt' } } } } },
      { data: { __typename: 'Query' } },
    ]);
    const outside = await request(media.service.app)
      .post('/graphql')
      .set(media.auth)
      .field('operations', JSON.stringify([{ query: upload, variables: { file: null } }]))
      .field('map', JSON.stringify({ 0: ['variables.file'] }))
      .attach('0', TEXT, 'third.txt');
    expect(outside.status).to.equal(400);
    expect(outside.body.error.message).to.equal(
      `Invalid multipart GraphQL request: map path "variables.file" is not under an operation's variables (0.variables...)`,
    );
  });

  it('updateFileInfo and removeFile (bytes gone from disk); a missing file is null', async () => {
    const up = await multipart(media, UPLOAD, { file: null }, { 0: ['variables.file'] }, [
      { field: '0', content: image, filename: 'tmp.png' },
    ]);
    const file = up.body.data.upload.data;
    const updated = await gql(
      media.service,
      `mutation($id: ID!) { updateFileInfo(id: $id, info: { name: "renamed.png", caption: "c" }) { data { attributes { name caption alternativeText } } } }`,
      { id: file.id },
      media.jwt,
    );
    expect(updated.body.data).to.deep.equal({
      updateFileInfo: { data: { attributes: { name: 'renamed.png', caption: 'c', alternativeText: null } } },
    });
    const removed = await gql(
      media.service,
      `mutation($id: ID!) { removeFile(id: $id) { data { id attributes { name } } } }`,
      { id: file.id },
      media.jwt,
    );
    expect(removed.body.data).to.deep.equal({
      removeFile: { data: { id: file.id, attributes: { name: 'renamed.png' } } },
    });
    for (const name of [
      file.attributes.url,
      ...Object.values(file.attributes.formats as Record<string, { url: string }>).map((f) => f.url),
    ])
      expect(await stat(join(media.uploads, String(name).replace('/uploads/', ''))).catch(() => null)).to.equal(null);
    const again = await gql(
      media.service,
      `mutation { removeFile(id: "${file.id}") { data { id } } }`,
      undefined,
      media.jwt,
    );
    expect(again.body.data).to.deep.equal({ removeFile: null });
  });

  it('deleteUploadFile (shadow CRUD) removes the bytes too', async () => {
    const up = await multipart(media, UPLOAD, { file: null }, { 0: ['variables.file'] }, [
      { field: '0', content: TEXT, filename: 'doc.txt' },
    ]);
    const file = up.body.data.upload.data;
    const res = await gql(
      media.service,
      `mutation { deleteUploadFile(id: "${file.id}") { data { id } } }`,
      undefined,
      media.jwt,
    );
    expect(res.body.data).to.deep.equal({ deleteUploadFile: { data: { id: file.id } } });
    expect(await stat(join(media.uploads, `${file.attributes.hash}.txt`)).catch(() => null)).to.equal(null);
  });

  describe('bad input', () => {
    it('a lying file, a file the field does not accept, no permission: errors, nothing stored', async () => {
      const count = () => media.service.context.models.collection('plugin::upload.file').countDocuments({});
      const before = await count();
      const lying = await multipart(media, UPLOAD, { file: null }, { 0: ['variables.file'] }, [
        { field: '0', content: TEXT, filename: 'fake.png' },
      ]);
      expect(lying.body.errors?.[0]).to.deep.include({ message: 'The content of fake.png is not image/png' });
      expect(lying.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
      const refused = await multipart(
        media,
        UPLOAD,
        { file: null, ref: ALBUM_UID, refId: '1', field: 'cover' },
        { 0: ['variables.file'] },
        [{ field: '0', content: TEXT, filename: 'doc.txt' }],
      );
      expect(refused.body.errors?.[0]?.message).to.equal('cover accepts only images: doc.txt is text/plain');
      const anonymous = await multipart(
        media,
        UPLOAD,
        { file: null },
        { 0: ['variables.file'] },
        [{ field: '0', content: TEXT, filename: 'doc.txt' }],
        false,
      );
      expect(anonymous.body.errors?.[0]?.message).to.equal('Forbidden access');
      expect(await count()).to.equal(before);
    });

    it('a file variable sent as JSON, a broken multipart request', async () => {
      const json = await gql(media.service, UPLOAD, { file: 'not-a-file' }, media.jwt);
      expect(json.body.errors?.[0]?.message).to.equal(
        'file must be a file sent as a multipart request (graphql-multipart-request-spec)',
      );
      const noMap = await request(media.service.app)
        .post('/graphql')
        .set(media.auth)
        .field('operations', JSON.stringify({ query: UPLOAD, variables: { file: null } }))
        .attach('0', TEXT, 'a.txt');
      expect(noMap.status).to.equal(400);
      expect(noMap.body.error.message).to.equal('Invalid multipart GraphQL request: the "map" field is missing');
      const outside = await multipart(media, UPLOAD, { file: null }, { 0: ['query'] }, [
        { field: '0', content: TEXT, filename: 'a.txt' },
      ]);
      expect(outside.status).to.equal(400);
      expect(outside.body.error.message).to.equal(
        'Invalid multipart GraphQL request: map path "query" is not under variables',
      );
    });

    it('a file over sizeLimit: 413 before anything is stored', async () => {
      const limited = await createMediaApp({ sizeLimit: 1000 });
      try {
        const res = await multipart(limited, UPLOAD, { file: null }, { 0: ['variables.file'] }, [
          { field: '0', content: Buffer.alloc(5000, 1), filename: 'big.bin' },
        ]);
        expect(res.status).to.equal(413);
        expect(res.body.error.message).to.equal('big.bin exceeds size limit of 1 KB.');
        expect(await limited.stored()).to.deep.equal([]);
      } finally {
        await limited.service.close();
      }
    });

    it("files over strapi::body's formidable.maxFileSize together: 413 FileTooBig, nothing stored", async () => {
      const limited = await createMediaApp({}, {}, (dir) =>
        writeFileSync(
          join(dir, 'config', 'middlewares.json'),
          JSON.stringify([
            ...['logger', 'errors', 'security', 'cors', 'poweredBy', 'session', 'query'].map((m) => `strapi::${m}`),
            { name: 'strapi::body', config: { formidable: { maxFileSize: 10_000 } } },
            'strapi::favicon',
            'strapi::public',
          ]),
        ),
      );
      try {
        const res = await multipart(
          limited,
          'mutation($files: [Upload]!) { multipleUpload(files: $files) { data { id } } }',
          { files: [null, null] },
          { 0: ['variables.files.0'], 1: ['variables.files.1'] },
          [
            { field: '0', content: Buffer.alloc(6000, 1), filename: 'a.bin' },
            { field: '1', content: Buffer.alloc(6000, 1), filename: 'b.bin' },
          ],
        );
        expect(res.status).to.equal(413);
        expect(res.body.error).to.deep.equal({
          status: 413,
          name: 'PayloadTooLargeError',
          message: 'FileTooBig',
          details: {},
        });
        expect(await limited.stored()).to.deep.equal([]);
      } finally {
        await limited.service.close();
      }
    });
  });
});
