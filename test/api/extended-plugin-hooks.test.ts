// An extension wrapping a built-in plugin's lifecycle functions, as projects write it
// (`const bootstrap = plugin.bootstrap.bind({}); plugin.bootstrap = async ({ strapi }) => { await
// bootstrap({ strapi }); … }`): the object holds the plugin's register/bootstrap/destroy, and
// what the extension put there runs at its stage, after the plugin's own work.
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../helpers/server.js';
import { startUpError } from '../helpers/start-up-error.js';
import { writeTempProject } from '../helpers/temp-app.js';

const NOTE = JSON.stringify({
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  attributes: { text: { type: 'string' } },
});

describe("an extension wrapping a built-in plugin's register and bootstrap", () => {
  it('runs the wrapped bootstrap after the plugin set up its store, and the wrapped register', async () => {
    const appDir = await writeTempProject({
      'src/api/note/content-types/note/schema.json': NOTE,
      'src/extensions/users-permissions/strapi-server.js': `
module.exports = (plugin) => {
  const register = plugin.register;
  const bootstrap = plugin.bootstrap.bind({});
  plugin.register = async ({ strapi }) => {
    await register({ strapi });
    strapi.config.set('plugin.users-permissions.registered', true);
  };
  plugin.bootstrap = async ({ strapi }) => {
    await bootstrap({ strapi });
    const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
    const advanced = await store.get({ key: 'advanced' });
    await store.set({ key: 'advanced', value: { ...advanced, allow_register: false } });
    await store.set({ key: 'seen', value: strapi.config.get('plugin.users-permissions.registered') });
  };
  return plugin;
};
`,
    });
    const service = await createTestService({ appDir });
    try {
      const res = await request(service.app)
        .post('/api/auth/local/register')
        .send({ username: 'ada', email: 'ada@example.com', password: 'Password123' })
        .expect(400);
      expect(res.body.error.message).to.equal('Register action is currently disabled');
      const seen = await service.context.connection
        .collection<{ key: string; value: unknown }>('strapi_core_store_settings')
        .findOne({ key: 'plugin_users-permissions_seen' });
      expect(seen?.value).to.equal(true);
    } finally {
      await service.close();
    }
  });

  it('stops start-up naming the extension when its bootstrap throws', async () => {
    const message = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `
module.exports = (plugin) => {
  plugin.bootstrap = async () => {
    throw new Error('no secret configured');
  };
  return plugin;
};
`,
    });
    expect(message).to.equal(
      'src/extensions/users-permissions/strapi-server.js: bootstrap() failed: no secret configured',
    );
  });

  it('names a package the extension requires as it runs, as when a file requires it at load', async () => {
    // a copy of the plugin's own bootstrap, required inside the extension function (kiabq/WoG)
    const atCall = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `
module.exports = (plugin) => {
  plugin.bootstrap = require('./server/bootstrap');
  return plugin;
};
`,
      'src/extensions/users-permissions/server/bootstrap.js': `const urljoin = require('url-join-not-installed');
module.exports = async () => {};
`,
    });
    expect(atCall).to.equal(
      'src/extensions/users-permissions/strapi-server.js: the extension requires the package "url-join-not-installed", which is not installed: run "npm install url-join-not-installed" in the app directory, or remove what uses it',
    );
    const inBootstrap = await startUpError({
      'src/extensions/users-permissions/strapi-server.js': `
module.exports = (plugin) => {
  plugin.bootstrap = async () => {
    require('sms-gateway-not-installed');
  };
  return plugin;
};
`,
    });
    expect(inBootstrap).to.equal(
      'src/extensions/users-permissions/strapi-server.js: bootstrap() requires the package "sms-gateway-not-installed", which is not installed: run "npm install sms-gateway-not-installed" in the app directory, or remove what uses it',
    );
  });
});
