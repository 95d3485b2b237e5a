// Runs the trial on a project directory: starts the service in memory on it, then sends each pass's
// requests (the API token's, then a signed-in user's) and collects what the service logged.
import { pino } from 'pino';
import { createServer, type ContentService } from '../../src/app.js';
import { graphqlConfig } from '../../src/plugins/graphql/config.js';
import { createApiToken } from '../../src/plugins/users-permissions/index.js';
import { USER_ACTIONS } from '../../src/access/actions.js';
import { tryContentType } from './content-type-requests.js';
import { Trial, type PassOutcome } from './trial.js';
import { grantRole, signIn } from './user-session.js';

export type PassName = 'token' | 'user';

export interface TrialReport {
  /** start-up notices, then what each pass set up (`[user] …`) */
  notices: string[];
  /** warnings and errors the service logged while a pass ran, tagged with the pass */
  logs: string[];
  /** why the service did not start, when it did not */
  startError?: string;
  passes: PassOutcome[];
}

export async function tryProject(appDir: string, passes: readonly PassName[]): Promise<TrialReport> {
  const report: TrialReport = { notices: [], logs: [], passes: [] };
  let phase: 'start' | PassName | 'stop' = 'start';
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const { msg, err, level } = JSON.parse(line) as { msg: string; level: number; err?: { message?: string } };
        const text = err?.message && !msg.includes(err.message) ? `${msg}: ${err.message}` : msg;
        // at start-up every notice; once a pass runs, warnings and errors only (not each request's line)
        if (phase === 'start') report.notices.push(text);
        else if (phase !== 'stop' && level >= 40) report.logs.push(`[${phase}] ${text}`);
      },
    },
  );
  let service: ContentService;
  try {
    service = await createServer({ appDir, memory: true, logger });
  } catch (err) {
    report.startError = (err as Error).message;
    return report;
  }
  const { url } = await service.start({ port: 0, host: '127.0.0.1' });
  const { context: ctx } = service;
  const graphqlOn = ctx.config.plugins.graphql?.enabled !== false;
  // shadowCRUD false: the content-types have no generated queries, only what the project adds
  const graphql = graphqlOn && graphqlConfig(ctx.config).shadowCRUD;
  if (!graphqlOn) report.notices.push('the GraphQL plugin is off: GraphQL is not tried');
  else if (!graphql) report.notices.push("the GraphQL plugin's shadowCRUD is off: GraphQL is not tried");
  const apiTypes = ctx.registry.listContentTypes().filter((c) => c.namespace === 'api');
  try {
    for (const [variant, name] of passes.entries()) {
      phase = name;
      const trial = new Trial(url, name, ctx.config.api.rest.prefix);
      report.passes.push(trial.outcome);
      if (name === 'token') {
        trial.token = (await createApiToken(ctx, { name: 'try-project', type: 'full-access' })).accessKey;
      } else {
        const notices: string[] = [];
        const user = await signIn(trial, ctx, notices);
        const granted = user ? await grantRole(ctx, appDir, user.roleId, notices) : new Set<string>();
        report.notices.push(...notices.map((notice) => `[user] ${notice}`));
        if (!user) {
          if (trial.outcome.failed.length === 0) trial.outcome.failed.push('signing in: no user to sign in as');
          continue;
        }
        trial.token = user.jwt;
        trial.grants = (action) => granted.has(action);
        await trial.call('GET', `${trial.api}/users/me`, undefined, USER_ACTIONS.me);
      }
      for (const ct of apiTypes) await tryContentType(trial, ctx.registry, ct, { graphql, variant });
    }
  } finally {
    phase = 'stop';
    await service.stop();
  }
  return report;
}
