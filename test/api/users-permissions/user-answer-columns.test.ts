// The user that register, login and the user routes answer is the user's row as Strapi's query
// engine reads it without populate: a component or a dynamic zone of an extended user schema is
// not in it (before, register and login answered the component's fields beside the user's).
import { expect } from 'chai';
import request from 'supertest';
import { createTestService } from '../../helpers/server.js';
import { writeTempProject } from '../../helpers/temp-app.js';
import { extendedUserSchema } from '../../helpers/user-schema.js';

const USER_EXTENSION = JSON.stringify(
  extendedUserSchema({
    nickname: { type: 'string' },
    profile: { type: 'component', repeatable: false, component: 'people.profile' },
    links: { type: 'component', repeatable: true, component: 'people.profile' },
    blocks: { type: 'dynamiczone', components: ['people.profile'] },
  }),
);

const PROFILE = JSON.stringify({
  collectionName: 'components_people_profiles',
  info: { displayName: 'Profile' },
  attributes: { bio: { type: 'string' } },
});

describe('users-permissions: a user answered without its components', () => {
  it('register and login answer the user columns only; the component is stored and populates on /users/me', async () => {
    const appDir = await writeTempProject({
      'package.json': JSON.stringify({ name: 'user-components', dependencies: {} }),
      'src/api/note/content-types/note/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'notes',
        info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
        attributes: { text: { type: 'string' } },
      }),
      'src/components/people/profile.json': PROFILE,
      'src/extensions/users-permissions/content-types/user/schema.json': USER_EXTENSION,
    });
    const service = await createTestService({ appDir });
    try {
      const registered = await request(service.app)
        .post('/api/auth/local/register')
        .send({
          username: 'ann',
          email: 'ann@example.com',
          password: 'Password123!',
          nickname: 'annie',
          profile: { bio: 'hello' },
          links: [{ bio: 'one' }],
          blocks: [{ __component: 'people.profile', bio: 'zone' }],
        });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      expect(registered.body.user).to.include({ username: 'ann', nickname: 'annie' });
      expect(registered.body.user).to.not.have.any.keys('profile', 'links', 'blocks');

      const login = await request(service.app)
        .post('/api/auth/local')
        .send({ identifier: 'ann', password: 'Password123!' })
        .expect(200);
      expect(login.body.user).to.include({ username: 'ann', nickname: 'annie' });
      expect(login.body.user).to.not.have.any.keys('profile', 'links', 'blocks');

      const me = await request(service.app)
        .get('/api/users/me?populate[0]=profile&populate[1]=links')
        .set('Authorization', `Bearer ${login.body.jwt}`)
        .expect(200);
      expect(me.body.profile).to.include({ bio: 'hello' });
      expect(me.body.links.map((link: { bio: string }) => link.bio)).to.deep.equal(['one']);
    } finally {
      await service.close();
    }
  });
});
