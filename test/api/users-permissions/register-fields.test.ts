// Register's extra user attributes without `register.allowedFields`: Strapi 4.26 takes every
// attribute a client may write (and warns at start-up that it does); with the setting, only those.
import { expect } from 'chai';
import request from 'supertest';
import { capturingLogger, WARN } from '../../helpers/log-capture.js';
import { createTestService } from '../../helpers/server.js';
import { writeTempProject } from '../../helpers/temp-app.js';
import { extendedUserSchema } from '../../helpers/user-schema.js';

const USER_EXTENSION = JSON.stringify(
  extendedUserSchema({
    displayName: { type: 'string', minLength: 3, required: true },
    notes: { type: 'text', private: true },
    level: { type: 'integer', writable: false },
  }),
);

const project = (plugins?: unknown) =>
  writeTempProject({
    'package.json': JSON.stringify({ name: 'register-fields', dependencies: {} }),
    'src/api/note/content-types/note/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
      attributes: { text: { type: 'string' } },
    }),
    'src/extensions/users-permissions/content-types/user/schema.json': USER_EXTENSION,
    ...(plugins ? { 'config/plugins.json': JSON.stringify(plugins) } : {}),
  });

const body = {
  username: 'ann',
  email: 'ann@example.com',
  password: 'Password123!',
  displayName: 'Ann',
  notes: 'secret',
  level: 9,
  confirmed: false,
};

describe('register: extra user attributes', () => {
  it('without register.allowedFields, takes what a client may write, as Strapi 4.26 does, and warns at start-up', async () => {
    const { logger, lines } = capturingLogger();
    const service = await createTestService({ appDir: await project(), logger });
    try {
      const warned = lines.filter((line) => line.level === WARN).map((line) => line.msg);
      expect(warned).to.include(
        'Users-permissions registration has defaulted to accepting the following additional user fields during registration: displayName,notes,level',
      );
      const res = await request(service.app).post('/api/auth/local/register').send(body).expect(200);
      // not written: the private attribute, the one not writable, the protected account flag
      expect(res.body.user).to.include({ username: 'ann', displayName: 'Ann', level: null, confirmed: true });
      expect(res.body.user).to.not.have.property('notes');
      const stored = await service.context.connection.db
        ?.collection('up_users')
        .findOne({ username: 'ann' }, { projection: { notes: 1, level: 1 } });
      expect(stored).to.not.have.any.keys('notes', 'level');
    } finally {
      await service.close();
    }
  });

  it('with register.allowedFields, takes only those (a required one left out fails the write)', async () => {
    const { logger, lines } = capturingLogger();
    const plugins = { 'users-permissions': { config: { register: { allowedFields: [] } } } };
    const service = await createTestService({ appDir: await project(plugins), logger });
    try {
      expect(lines.filter((line) => line.level === WARN).map((line) => line.msg)).to.not.include.members([
        'Users-permissions registration has defaulted to accepting the following additional user fields during registration: displayName,notes,level',
      ]);
      const res = await request(service.app).post('/api/auth/local/register').send(body).expect(400);
      expect(res.body.error).to.include({ name: 'ValidationError', message: 'displayName must be defined.' });
    } finally {
      await service.close();
    }
  });
});
