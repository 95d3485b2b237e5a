// In a real browser: an HTML form uploads a file to /api/upload with a JWT, and the playground's
// TRACING panel fills in when `apolloServer.tracing` is on.
//
// A plain form post cannot carry `Authorization: Bearer`, and the content API reads the JWT only
// from that header (as Strapi's). So the page does what Strapi's upload documentation shows: the
// form's submit handler sends `new FormData(form)` with fetch and the header; the form itself
// (file input named `files`, a `fileInfo` field) is an ordinary HTML form.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { launchBrowser, waitForExpression } from '../helpers/browser.js';
import { createMediaApp, png, type MediaApp } from '../helpers/media-app.js';

const PAGE = `<!doctype html>
<html><body>
  <form id="login">
    <input name="identifier" value="uploader@example.com">
    <input name="password" type="password" value="Password123!">
    <button type="submit">Log in</button>
  </form>
  <p id="who"></p>
  <form id="upload" action="/api/upload" method="post" enctype="multipart/form-data">
    <input type="file" name="files">
    <input type="hidden" name="fileInfo" value='{"alternativeText":"sent from a form"}'>
    <button type="submit">Upload</button>
  </form>
  <pre id="result"></pre>
  <img id="preview" alt="">
  <script>
    let jwt = null;
    document.getElementById('login').addEventListener('submit', async (event) => {
      event.preventDefault();
      const form = new FormData(event.target);
      const res = await fetch('/api/auth/local', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ identifier: form.get('identifier'), password: form.get('password') }),
      });
      const body = await res.json();
      jwt = body.jwt;
      document.getElementById('who').textContent = body.user ? 'logged in as ' + body.user.username : 'login failed';
    });
    document.getElementById('upload').addEventListener('submit', async (event) => {
      event.preventDefault();
      const res = await fetch(event.target.action, {
        method: 'POST',
        headers: { Authorization: 'Bearer ' + jwt },
        body: new FormData(event.target),
      });
      const body = await res.json();
      document.getElementById('result').textContent = JSON.stringify({ status: res.status, body });
      if (res.ok) document.getElementById('preview').src = body[0].url;
    });
  </script>
</body></html>`;

describe('browser: uploads and GraphQL tracing', function () {
  this.timeout(90_000);
  let media: MediaApp;
  let browser: Browser;
  let url: string;

  before(async () => {
    media = await createMediaApp({}, { graphql: { enabled: true, config: { apolloServer: { tracing: true } } } });
    url = (await media.service.start({ port: 0, host: '127.0.0.1' })).url;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await media?.service.close();
  });

  it('an HTML form uploads an image with a JWT; the page then shows it from /uploads', async () => {
    const page = await browser.newPage();
    // the page is served from the service's own origin, as an app's page would be
    await page.route(`${url}/upload-form.html`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: PAGE }),
    );
    await page.goto(`${url}/upload-form.html`);
    await page.click('#login button');
    await waitForExpression(page, `document.getElementById('who').textContent !== ''`);
    expect(await page.textContent('#who')).to.equal('logged in as uploader');

    const image = await png(640, 480);
    const file = join(tmpdir(), `browser-upload-${process.pid}.png`);
    await writeFile(file, image);
    await page.setInputFiles('#upload input[type=file]', file);
    await page.click('#upload button');
    await waitForExpression(page, `document.getElementById('result').textContent !== ''`);
    await rm(file);
    const result = JSON.parse((await page.textContent('#result')) ?? '{}') as {
      status: number;
      body: Array<{ name: string; alternativeText: string; url: string; hash: string; width: number }>;
    };
    expect(result.status).to.equal(200);
    const [uploaded] = result.body;
    expect(uploaded).to.include({
      name: `browser-upload-${process.pid}.png`,
      alternativeText: 'sent from a form',
      width: 640,
    });
    const stored = await readFile(join(media.uploads, `${uploaded!.hash}.png`));
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height]).to.deep.equal([640, 480]);
    await waitForExpression(page, `document.getElementById('preview').naturalWidth > 0`);
    expect(await page.evaluate(`document.getElementById('preview').naturalWidth`)).to.equal(640);
    await page.close();
  });

  it('the playground shows tracing rows for a query', async () => {
    const created = await request(media.service.app)
      .post('/api/albums')
      .set(media.auth)
      .send({ data: { title: 'Trip' } });
    expect(created.status).to.equal(200);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}/graphql`);
    await page.waitForSelector('.playground', { timeout: 30_000 });
    await page.waitForSelector('.CodeMirror');
    await page.evaluate(
      `document.querySelector('.CodeMirror').CodeMirror.setValue('{ albums { data { id attributes { title } } } }')`,
    );
    await page.click('[title="Execute Query (Ctrl-Enter)"]');
    await waitForExpression(page, `document.body.innerText.includes('"albums"')`);
    await page.getByText('Tracing', { exact: true }).click();
    await waitForExpression(
      page,
      `document.body.innerText.includes('Response') && /\\d+ (µs|ms)/.test(document.body.innerText)`,
    );
    const panelText = String(await page.evaluate('document.body.innerText'));
    // one row per resolver, named by the last two segments of its path
    for (const row of ['Request', 'albums.data', 'attributes.title', 'Response']) expect(panelText).to.include(row);
    expect(panelText).to.match(/\d+ (µs|ms)/);
    const screenshot = join(tmpdir(), `playground-tracing-${process.pid}.png`);
    await page.screenshot({ path: screenshot });
    expect((await readFile(screenshot)).length).to.be.greaterThan(10_000);
    await rm(screenshot);
    await page.close();
  });
});
