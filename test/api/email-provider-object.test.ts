// `strapi.plugin('email').provider`: the object the e-mail provider's `init` gave, which Strapi's
// e-mail plugin keeps there and other plugins send through (strapi-plugin-email-designer's
// `sendTemplatedEmail` ends in `strapi.plugin('email').provider.send(...)`; before, that was
// undefined and its call a 500). The provider and the plugin are the test's own packages, written
// into a temporary project's node_modules: a provider keeping what it sends (its init calling a
// helper of its package through `this`, as @strapi/provider-email-mailgun's does), and a plugin
// reading a template from its content-type and sending it as email-designer does.
import { expect } from 'chai';
import request from 'supertest';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runningStrapi } from '../../src/lifecycle/index.js';
import { capturingLogger } from '../helpers/log-capture.js';
import { createTestService, type TestService } from '../helpers/server.js';
import { writeTempProject } from '../helpers/temp-app.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

const PROVIDER = `'use strict';
const sent = [];
module.exports = {
  sent,
  // as @strapi/provider-email-mailgun's init does with this.convertProviderOptions: a helper of the package, through this
  tagOf(providerOptions) {
    return providerOptions.tag;
  },
  init(providerOptions, settings) {
    const tag = this.tagOf(providerOptions);
    return {
      name: 'memo',
      async send(options) {
        sent.push({ from: settings.defaultFrom, ...options, tag });
        return { queued: sent.length };
      },
    };
  },
};
`;

/** email-designer's contract: a template found by its reference id, filled, sent through the e-mail plugin's provider. */
const TEMPLATES_PLUGIN = `'use strict';
module.exports = {
  contentTypes: {
    template: {
      schema: {
        kind: 'collectionType',
        collectionName: 'mail_templates',
        info: { singularName: 'template', pluralName: 'templates', displayName: 'Template' },
        options: { draftAndPublish: false },
        attributes: {
          templateReferenceId: { type: 'integer', unique: true },
          subject: { type: 'string' },
          bodyText: { type: 'text' },
        },
      },
    },
  },
  services: {
    email: ({ strapi }) => ({
      async sendTemplatedEmail(options, { templateReferenceId }, data) {
        const template = await strapi.db.query('plugin::mail-templates.template').findOne({ where: { templateReferenceId } });
        if (!template) return null;
        const fill = (text) => text.replace(/{{(\\w+)}}/g, (_, key) => String(data[key] ?? ''));
        return strapi.plugin('email').provider.send({ ...options, subject: fill(template.subject), text: fill(template.bodyText) });
      },
    }),
  },
};
`;

const NOTE_CONTROLLER = `'use strict';
module.exports = require('@strapi/strapi').factories.createCoreController('api::note.note', ({ strapi }) => ({
  async welcome(ctx) {
    await strapi.db.query('plugin::mail-templates.template').create({
      data: { templateReferenceId: 1, subject: 'Welcome {{name}}', bodyText: 'Hello {{name}}, thanks.' },
    });
    const result = await strapi
      .plugin('mail-templates')
      .service('email')
      .sendTemplatedEmail({ to: ctx.request.body.to }, { templateReferenceId: 1 }, { name: ctx.request.body.name });
    ctx.body = { result };
  },
}));
`;

function projectFiles(provider: string): Record<string, string> {
  return {
    'package.json': json({
      name: 'mail-app',
      private: true,
      dependencies: { '@strapi/provider-email-memo': '1.0.0', 'strapi-plugin-mail-templates': '1.0.0' },
    }),
    'config/plugins.js': `module.exports = () => ({
  email: { config: { provider: '${provider}', providerOptions: { tag: 'from-config' }, settings: { defaultFrom: 'site@example.com' } } },
});
`,
    'node_modules/@strapi/provider-email-memo/package.json': json({
      name: '@strapi/provider-email-memo',
      version: '1.0.0',
    }),
    'node_modules/@strapi/provider-email-memo/index.js': PROVIDER,
    'node_modules/strapi-plugin-mail-templates/package.json': json({
      name: 'strapi-plugin-mail-templates',
      version: '1.0.0',
      strapi: { name: 'mail-templates', kind: 'plugin' },
    }),
    'node_modules/strapi-plugin-mail-templates/strapi-server.js': TEMPLATES_PLUGIN,
    'src/api/note/content-types/note/schema.json': json({
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { text: { type: 'string' } },
    }),
    'src/api/note/controllers/note.js': NOTE_CONTROLLER,
    'src/api/note/routes/welcome.js': `module.exports = { routes: [{ method: 'POST', path: '/notes/welcome', handler: 'note.welcome', config: { auth: false } }] };\n`,
  };
}

describe("strapi.plugin('email').provider", () => {
  describe('with the provider installed', () => {
    let service: TestService;
    let sent: Array<Record<string, unknown>> = [];
    before(async () => {
      const dir = await writeTempProject(projectFiles('memo'));
      service = await createTestService({ appDir: dir });
      sent = (createRequire(join(dir, 'package.json'))('@strapi/provider-email-memo') as { sent: typeof sent }).sent;
    });
    after(() => service.close());

    it("is the object the provider's init gave, the same one each time", () => {
      const email = runningStrapi()?.plugin('email');
      expect(email?.provider).to.include({ name: 'memo' });
      expect(email?.provider).to.equal(runningStrapi()?.plugin('email')?.provider);
    });

    it("sends what a plugin's service passes it, with the provider's settings, and answers what the provider returned", async () => {
      sent.length = 0;
      const res = await request(service.app)
        .post('/api/notes/welcome')
        .send({ to: 'ada@example.com', name: 'Ada' })
        .expect(200);
      expect(res.body).to.deep.equal({ result: { queued: 1 } });
      expect(sent).to.deep.equal([
        {
          from: 'site@example.com',
          to: 'ada@example.com',
          subject: 'Welcome Ada',
          text: 'Hello Ada, thanks.',
          tag: 'from-config',
        },
      ]);
    });
  });

  describe('without the provider installed', () => {
    let service: TestService;
    const { logger, lines } = capturingLogger();
    before(async () => {
      service = await createTestService({ appDir: await writeTempProject(projectFiles('sendgrid')), logger });
    });
    after(() => service.close());

    it('writes what it is given to the log, as the e-mail service does', async () => {
      await request(service.app).post('/api/notes/welcome').send({ to: 'bo@example.com', name: 'Bo' }).expect(200);
      const mails = lines.filter((l) => l.mail).map((l) => l.mail as Record<string, unknown>);
      expect(mails).to.deep.equal([
        { from: 'site@example.com', to: 'bo@example.com', subject: 'Welcome Bo', text: 'Hello Bo, thanks.' },
      ]);
    });
  });
});
