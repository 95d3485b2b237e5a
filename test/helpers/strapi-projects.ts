// Strapi v4 project layouts, as text files, modelled on real projects (the create-strapi-app
// templates and starters): written to a temp directory by the suites that start the service on them.

const schema = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const ARTICLE = {
  kind: 'collectionType',
  collectionName: 'articles',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', description: '' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  attributes: {
    title: { type: 'string', required: true },
    slug: { type: 'uid', targetField: 'title' },
    body: { type: 'richtext' },
    category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
    seo: { type: 'component', repeatable: false, component: 'shared.seo' },
  },
};

const CATEGORY = {
  kind: 'collectionType',
  collectionName: 'categories',
  info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true, unique: true },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
  },
};

const SEO = {
  collectionName: 'components_shared_seos',
  info: { displayName: 'seo', icon: 'search' },
  options: {},
  attributes: { metaTitle: { type: 'string', required: true }, metaDescription: { type: 'text' } },
};

/** Content-types (src/api, src/components) and the permissions the suites grant. */
const CONTENT = {
  'src/api/article/content-types/article/schema.json': schema(ARTICLE),
  'src/api/article/routes/article.js':
    "'use strict';\nconst { createCoreRouter } = require('@strapi/strapi').factories;\nmodule.exports = createCoreRouter('api::article.article');\n",
  'src/api/category/content-types/category/schema.json': schema(CATEGORY),
  'src/components/shared/seo.json': schema(SEO),
  'src/admin/app.example.tsx': 'export default { config: { locales: [] } };\n',
  'public/robots.txt': '# To prevent search engines from seeing the site altogether, uncomment the next two lines:\n',
  // Strapi keeps permissions in its database (set in the admin panel); this service reads them from here
  'config/permissions.json': schema({
    public: ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find'],
    authenticated: [
      'api::article.article.find',
      'api::article.article.findOne',
      'api::article.article.create',
      'api::article.article.update',
      'api::article.article.delete',
      'api::category.category.find',
      'api::category.category.create',
    ],
  }),
};

/** The origins the TypeScript project's cors list allows unless told otherwise. */
export const ALLOWED_ORIGINS = ['http://localhost:3000', 'http://127.0.0.1:3999'];

/** The variables the TypeScript project's `.env` sets, for suites that restore the environment. */
export const PROJECT_VARIABLES = [
  'HOST',
  'PORT',
  'APP_KEYS',
  'API_TOKEN_SALT',
  'ADMIN_JWT_SECRET',
  'TRANSFER_TOKEN_SALT',
  'JWT_SECRET',
  'DATABASE_CLIENT',
  'DATABASE_FILENAME',
  'BLOG_PAGE_SIZE',
  'BLOG_WITH_COUNT',
  'PUBLIC_URL',
];

/** Runs `fn` with NODE_ENV set, then restores it and the given variables (a project's `.env` fills them). */
export async function withEnvironment<T>(nodeEnv: string, names: string[], fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(['NODE_ENV', ...names].map((k) => [k, process.env[k]]));
  process.env.NODE_ENV = nodeEnv;
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

/**
 * A TypeScript project (create-strapi-app --ts, 4.2x): `.ts` configs with the env helper, `.env`,
 * `config/env/production/`, a middlewares file with a cors origin list, and a `src/index.ts` that
 * turns off the category mutations and adds GraphQL resolvers.
 */
export function typescriptProject(
  env: Record<string, string> = {},
  origins: string[] = ALLOWED_ORIGINS,
): Record<string, string> {
  return {
    ...CONTENT,
    'package.json': schema({
      name: 'my-blog',
      private: true,
      version: '0.1.0',
      scripts: { develop: 'strapi develop', start: 'strapi start', build: 'strapi build' },
      dependencies: {
        '@strapi/plugin-graphql': '4.25.8',
        '@strapi/plugin-i18n': '4.25.8',
        '@strapi/plugin-users-permissions': '4.25.8',
        '@strapi/strapi': '4.25.8',
        'better-sqlite3': '8.6.0',
      },
      strapi: { uuid: '7f6e3e2d-6a3a-4d7b-9a57-0b0b7c0a1a2b' },
      engines: { node: '>=18.0.0 <=20.x.x', npm: '>=6.0.0' },
    }),
    'tsconfig.json': schema({
      extends: '@strapi/typescript-utils/tsconfigs/server',
      compilerOptions: { outDir: 'dist', rootDir: '.' },
      include: ['./', './**/*.ts', './**/*.js', 'src/**/*.json'],
      exclude: ['node_modules/', 'build/', 'dist/', '.cache/', '.tmp/', 'src/admin/', '**/*.test.*', 'src/plugins/**'],
    }),
    '.env': Object.entries({
      HOST: '0.0.0.0',
      PORT: '1337',
      APP_KEYS: '"toBeModified1,toBeModified2"',
      API_TOKEN_SALT: 'tobemodified',
      ADMIN_JWT_SECRET: 'tobemodified',
      TRANSFER_TOKEN_SALT: 'tobemodified',
      JWT_SECRET: 'project-jwt-secret',
      DATABASE_CLIENT: 'sqlite',
      DATABASE_FILENAME: '.tmp/data.db',
      BLOG_PAGE_SIZE: '5',
      BLOG_WITH_COUNT: 'true',
      ...env,
    })
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    'config/server.ts': `export default ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: {
    keys: env.array('APP_KEYS'),
  },
  webhooks: {
    populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false),
  },
});
`,
    'config/admin.ts': `export default ({ env }) => ({
  auth: {
    secret: env('ADMIN_JWT_SECRET'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT'),
    },
  },
  flags: {
    nps: env.bool('FLAG_NPS', true),
    promoteEE: env.bool('FLAG_PROMOTE_EE', true),
  },
});
`,
    'config/database.ts': `import path from 'path';

export default ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');

  const connections = {
    postgres: {
      connection: {
        connectionString: env('DATABASE_URL'),
        host: env('DATABASE_HOST', 'localhost'),
        port: env.int('DATABASE_PORT', 5432),
        database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'strapi'),
        password: env('DATABASE_PASSWORD', 'strapi'),
        ssl: env.bool('DATABASE_SSL', false) && {
          rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true),
        },
        schema: env('DATABASE_SCHEMA', 'public'),
      },
      pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
    },
    sqlite: {
      connection: {
        filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
    },
  };

  return {
    connection: {
      client,
      ...connections[client],
      acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
    },
  };
};
`,
    'config/api.ts': `export default ({ env }) => ({
  rest: {
    defaultLimit: env.int('BLOG_PAGE_SIZE', 25),
    maxLimit: 100,
    withCount: env.bool('BLOG_WITH_COUNT', false),
  },
});
`,
    'config/middlewares.ts': `export default [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  {
    name: 'strapi::cors',
    config: {
      origin: ${JSON.stringify(origins)},
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
      headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
      keepHeaderOnError: true,
    },
  },
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`,
    'config/plugins.ts': `export default ({ env }) => ({
  'users-permissions': {
    config: {
      jwtSecret: env('JWT_SECRET'),
      jwt: { expiresIn: '7d' },
      ratelimit: { enabled: env.bool('RATELIMIT_ENABLED', false) },
    },
  },
  graphql: {
    config: {
      endpoint: '/graphql',
      shadowCRUD: true,
      playgroundAlways: env.bool('GRAPHQL_PLAYGROUND', false),
      depthLimit: 7,
      amountLimit: 100,
      apolloServer: { tracing: false },
    },
  },
});
`,
    'config/env/production/server.ts': `export default ({ env }) => ({
  url: env('PUBLIC_URL', 'https://api.example.com'),
  proxy: true,
});
`,
    'config/env/production/api.ts': `export default {
  rest: { maxLimit: 50 },
};
`,
    'src/index.ts': `import type { Strapi } from '@strapi/strapi';

export default {
  /**
   * An asynchronous register function that runs before
   * your application is initialized.
   */
  register({ strapi }: { strapi: Strapi }) {
    const extensionService = strapi.plugin('graphql').service('extension');
    extensionService.shadowCRUD('api::category.category').disableMutations();
    extensionService.use(({ strapi: app }) => ({
      typeDefs: \`
        type Query { siteName: String!, articleBySlug(slug: String!): ArticleEntityResponse }
        extend type Article { readingTime: Int }
      \`,
      resolvers: {
        Query: {
          siteName: { resolve: () => app.config.get('server.url', 'no url') },
          // the usual custom resolver: read with the entity service, answer through the format service
          articleBySlug: {
            resolve: async (parent, args) => {
              const { toEntityResponse } = app.plugin('graphql').service('format').returnTypes;
              const [entry] = await app.entityService.findMany('api::article.article', {
                filters: { slug: args.slug },
                populate: ['category', 'seo'],
              });
              return toEntityResponse(entry ?? null, { args, resourceUID: 'api::article.article' });
            },
          },
        },
        Article: {
          readingTime: (parent) => Math.ceil(String(parent.body ?? '').split(' ').length / 200),
        },
      },
      resolversConfig: { 'Query.siteName': { auth: false }, 'Query.articleBySlug': { auth: false } },
    }));
  },

  /**
   * An asynchronous bootstrap function that runs before
   * your application gets started.
   */
  async bootstrap({ strapi }: { strapi: Strapi }) {
    const crud = strapi.plugin('graphql').service('extension').shadowCRUD('api::category.category');
    strapi.log.info(\`bootstrap: category mutations \${crud.areMutationsEnabled() ? 'on' : 'off'}, \${strapi.config.get('server.app.keys').length} app keys\`);
  },
};
`,
  };
}

/**
 * A JavaScript project of an older 4.x line (CommonJS `module.exports` everywhere, `src/index.js`),
 * with providers and features the service does not have (cloudinary, sendgrid, cron) and a REST
 * prefix of its own.
 */
export function javascriptProject(): Record<string, string> {
  return {
    ...CONTENT,
    'package.json': schema({
      name: 'legacy-site',
      private: true,
      version: '0.1.0',
      dependencies: { '@strapi/strapi': '4.10.5', '@strapi/plugin-users-permissions': '4.10.5', pg: '8.8.0' },
      strapi: { uuid: 'f0e1d2c3-b4a5-4697-8877-665544332211' },
    }),
    'config/server.js': `module.exports = ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS', ['a', 'b']) },
  cron: { enabled: env.bool('CRON_ENABLED', false), tasks: require('./cron-tasks') },
});
`,
    'config/cron-tasks.js': `module.exports = {
  '0 0 * * *': async ({ strapi }) => { strapi.log.info('nightly'); },
};
`,
    'config/admin.js': `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET', 'admin-secret') },
  apiToken: { salt: env('API_TOKEN_SALT', 'legacy-salt') },
});
`,
    'config/database.js': `const { parse } = require('path');
module.exports = ({ env }) => ({
  connection: {
    client: 'postgres',
    connection: { host: env('DATABASE_HOST', '127.0.0.1'), port: env.int('DATABASE_PORT', 5432), ssl: false },
    debug: false,
  },
});
`,
    'config/api.js': `module.exports = {
  rest: { prefix: '/v1', defaultLimit: 25, maxLimit: 100, withCount: true },
};
`,
    'config/middlewares.js': `module.exports = [
  'strapi::errors',
  {
    name: 'strapi::security',
    config: {
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'connect-src': ["'self'", 'https:'],
          'img-src': ["'self'", 'data:', 'blob:', 'res.cloudinary.com'],
          'media-src': ["'self'", 'data:', 'blob:', 'res.cloudinary.com'],
          upgradeInsecureRequests: null,
        },
      },
    },
  },
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::logger',
  'strapi::query',
  { name: 'strapi::body', config: { formLimit: '256mb', jsonLimit: '256mb', textLimit: '256mb', formidable: { maxFileSize: 250 * 1024 * 1024 } } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`,
    'config/plugins.js': `module.exports = ({ env }) => ({
  upload: {
    config: {
      provider: 'cloudinary',
      providerOptions: { cloud_name: env('CLOUDINARY_NAME'), api_key: env('CLOUDINARY_KEY'), api_secret: env('CLOUDINARY_SECRET') },
      actionOptions: { upload: {}, delete: {} },
    },
  },
  email: {
    config: {
      provider: 'sendgrid',
      providerOptions: { apiKey: env('SENDGRID_API_KEY') },
      settings: { defaultFrom: 'hello@example.com' },
    },
  },
  graphql: { enabled: true, config: { playgroundAlways: false, defaultLimit: 10, maxLimit: 20 } },
});
`,
    'src/index.js': `'use strict';

module.exports = {
  register({ strapi }) {
    const extensionService = strapi.plugin('graphql').service('extension');
    extensionService.use(({ nexus }) => ({
      types: [
        nexus.objectType({
          name: 'Greeting',
          definition(t) {
            t.string('text');
            t.json('meta');
          },
        }),
        nexus.extendType({
          type: 'Query',
          definition(t) {
            t.field('greeting', {
              type: 'Greeting',
              args: { name: nexus.stringArg() },
              resolve: (parent, args, context) => ({
                text: 'hello ' + (args.name || (context.state.user ? context.state.user.username : 'visitor')),
                meta: { strategy: context.state.auth.strategy.name },
              }),
            });
          },
        }),
        nexus.extendType({
          type: 'Article',
          definition(t) {
            t.nonNull.int('titleLength', { resolve: (parent) => String(parent.title || '').length });
          },
        }),
      ],
      resolversConfig: { 'Query.greeting': { auth: false } },
    }));
    // fields nexus types add, their resolvers given apart (as caroster's extension does)
    extensionService.use(({ nexus }) => ({
      types: [
        nexus.extendType({ type: 'Article', definition(t) { t.string('shout'); } }),
        nexus.extendType({ type: 'Query', definition(t) { t.int('articleTotal'); } }),
      ],
      resolvers: {
        Article: { shout: (parent) => String(parent.title || '').toUpperCase() },
        Query: { articleTotal: () => strapi.entityService.count('api::article.article') },
      },
      resolversConfig: { 'Query.articleTotal': { auth: false } },
    }));
    // the older plugin API, in a resolver run per request
    extensionService.use({
      typeDefs: 'type Query { refreshToken: String }',
      resolvers: {
        Query: {
          refreshToken: (parent, args, ctx) => strapi.plugins['users-permissions'].services.jwt.issue({ id: ctx.state.user.id }),
        },
      },
    });
  },

  async bootstrap({ strapi }) {
    // the global, as Strapi sets it
    global.strapi.log.info(\`legacy bootstrap on \${strapi.config.get('api.rest.prefix')}\`);
    // seed once, and open a permission to the public role, as real projects' bootstraps do
    if ((await strapi.entityService.count('api::category.category')) === 0) {
      await strapi.entityService.create('api::category.category', { data: { name: 'Seeded' } });
    }
    const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
    const granted = await strapi.query('plugin::users-permissions.permission').count({
      where: { action: 'api::category.category.findOne', role: publicRole.id },
    });
    if (granted === 0) {
      await strapi.query('plugin::users-permissions.permission').create({
        data: { action: 'api::category.category.findOne', role: publicRole.id },
      });
    }
  },
};
`,
  };
}
