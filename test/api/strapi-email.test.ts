// Strapi v4's e-mail plugin for a project's code (test/fixtures/email-project): the provider the
// app installed (a copy of the fixture gets its node_modules/@strapi/provider-email-memory), used
// by strapi.plugins.email.services.email.send and sendTemplatedEmail from a lifecycle hook; without
// the provider, a warning at start-up and the messages in the log.
import { runningStrapi } from '../../src/lifecycle/index.js';
import { expect } from 'chai';
import request from 'supertest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { capturingLogger, WARN } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';

const EMAIL_PROJECT = fileURLToPath(new URL('../fixtures/email-project', import.meta.url));

describe("a Strapi v4 project's e-mail plugin", () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cs-email-'));
    cpSync(EMAIL_PROJECT, dir, { recursive: true });
    cpSync(join(dir, 'providers', 'memory'), join(dir, 'node_modules', '@strapi', 'provider-email-memory'), {
      recursive: true,
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('with the provider installed', () => {
    let service: TestService;
    let sent: Array<Record<string, unknown>> = [];
    before(async () => {
      service = await createTestService({ appDir: dir });
      sent = (createRequire(join(dir, 'package.json'))('@strapi/provider-email-memory') as { sent: typeof sent }).sent;
    });
    after(() => service.close());

    it('sends through it, with its options and settings, from a lifecycle hook', async () => {
      sent.length = 0;
      const res = await request(service.app)
        .post('/api/messages')
        .send({ data: { name: 'Ada', body: 'Hello there' } })
        .expect(200);
      expect(sent).to.deep.equal([
        {
          to: 'owner@example.com',
          subject: `New message ${res.body.data.id}`,
          text: 'Hello there',
          from: 'site@example.com',
          tag: 'from-config',
        },
        {
          to: 'sender@example.com',
          subject: 'Thanks Ada',
          text: 'We got: Hello there',
          html: '<p>Hello Ada</p>',
          from: 'site@example.com',
          tag: 'from-config',
        },
      ]);
    });

    it('serves POST /api/email to callers with plugin::email.email.send (listed for roles), not to the public', async () => {
      sent.length = 0;
      await request(service.app)
        .post('/api/email')
        .send({ to: 'x@example.com', subject: 'Hi', text: 'Hey' })
        .expect(403);
      expect(sent).to.deep.equal([]);
      const { accessKey } = await createApiToken(service.context, { name: 'mailer', type: 'full-access' });
      const res = await request(service.app)
        .post('/api/email')
        .set('Authorization', `Bearer ${accessKey}`)
        .send({ to: 'x@example.com', subject: 'Hi', text: 'Hey' })
        .expect(200);
      expect(res.body).to.deep.equal({});
      expect(sent).to.deep.equal([
        { to: 'x@example.com', subject: 'Hi', text: 'Hey', from: 'site@example.com', tag: 'from-config' },
      ]);
      const catalogue = await request(service.app)
        .get('/api/users-permissions/permissions')
        .set('Authorization', `Bearer ${accessKey}`)
        .expect(200);
      expect(catalogue.body.permissions['plugin::email'].controllers.email).to.deep.equal({
        send: { enabled: false, policy: '' },
      });
    });

    it('refuses a template without subject, text and html, as Strapi', async () => {
      const email = runningStrapi()?.plugin('email')?.service('email') as {
        sendTemplatedEmail(o: object, t: object): Promise<unknown>;
      };
      let message = '';
      await email.sendTemplatedEmail({ to: 'x@example.com' }, { subject: 'Hi' }).catch((err: Error) => {
        message = err.message;
      });
      expect(message).to.equal('Following attributes are missing from your email template : text, html');
    });
  });

  describe('without the provider installed', () => {
    let service: TestService;
    const { logger, lines } = capturingLogger();
    before(async () => {
      process.env.EMAIL_PROVIDER = 'nodemailer';
      service = await createTestService({ appDir: dir, logger });
    });
    after(async () => {
      delete process.env.EMAIL_PROVIDER;
      await service.close();
    });

    it('warns once at start-up naming the package to install, and writes the messages to the log', async () => {
      const warnings = lines.filter((l) => l.level === WARN).map((l) => l.msg);
      expect(warnings).to.include(
        'config/plugins.js: the e-mail provider "nodemailer" is not installed: run "npm install @strapi/provider-email-nodemailer" in the app directory; until then e-mails are written to the log',
      );
      await request(service.app)
        .post('/api/messages')
        .send({ data: { name: 'Bo', body: 'Hi' } })
        .expect(200);
      const mails = lines.filter((l) => l.mail).map((l) => l.mail as Record<string, unknown>);
      expect(mails.map((m) => m.subject)).to.include('Thanks Bo');
      expect(mails[0]).to.include({ from: 'site@example.com', to: 'owner@example.com' });
    });
  });
});
