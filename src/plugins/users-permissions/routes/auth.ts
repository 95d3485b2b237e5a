import type { Request } from 'express';
import { AUTH_ACTIONS } from '../../../access/actions.js';
import { operationContext } from '../../../operations/request-context.js';
import { ApplicationError } from '../../../errors/index.js';
import type { PluginRoute } from '../../types.js';
import {
  changePassword,
  confirmEmail,
  forgotPassword,
  login,
  register,
  resetPassword,
  sendEmailConfirmation,
} from '../auth-operations.js';
import { advancedSettings } from '../advanced-settings.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';

const PROVIDER_DISABLED = 'This provider is disabled';
/** the routes Strapi guards with its rate limiter */
const LIMITED = { prefix: '', middlewares: ['plugin::users-permissions.rateLimit'] };

/** `/auth/local`, `/auth/local/register`, `/auth/forgot-password`, `/auth/reset-password`, `/auth/change-password`, the e-mail confirmation routes, the (disabled) OAuth connect and callback. */
export function authRoutes(rt: UsersPermissionsRuntime): PluginRoute[] {
  // one action for both routes, as Strapi's `auth.callback`: no provider in the path is `local`
  const callback: PluginRoute['run'] = async (req, res) => {
    authorize(req, AUTH_ACTIONS.callback);
    if ((req.params.provider ?? 'local') !== 'local') throw new ApplicationError(PROVIDER_DISABLED);
    // a GET callback carries no body
    res.json(await login(rt, req.method === 'GET' ? (req.body ?? {}) : req.body));
  };
  /** A POST whose body one operation answers, after the action's permission check. */
  const post = (
    path: string,
    action: keyof typeof AUTH_ACTIONS,
    config: PluginRoute['config'],
    operation: (runtime: UsersPermissionsRuntime, body: unknown, req: Request) => Promise<unknown>,
  ): PluginRoute => ({
    method: 'POST',
    path,
    handler: `auth.${action}`,
    config,
    run: async (req, res) => {
      authorize(req, AUTH_ACTIONS[action]);
      res.json(await operation(rt, req.body, req));
    },
  });
  return [
    // No OAuth provider is enabled here: Strapi answers a connect or a callback of any provider so;
    // the `local` callback is the login.
    {
      method: 'GET',
      path: '/connect/:provider',
      handler: 'auth.connect',
      config: LIMITED,
      run: (req) => {
        authorize(req, AUTH_ACTIONS.connect);
        throw new ApplicationError(PROVIDER_DISABLED);
      },
    },
    { method: 'POST', path: '/auth/local', handler: 'auth.callback', config: LIMITED, run: callback },
    // the new user's role shows to a caller who may read roles (a full-access API token), as Strapi's sanitizer leaves it
    post('/auth/local/register', 'register', LIMITED, (runtime, body, req) =>
      register(runtime, body, operationContext(runtime.ctx, req)),
    ),
    {
      method: 'GET',
      path: '/auth/:provider/callback',
      handler: 'auth.callback',
      config: { prefix: '' },
      run: callback,
    },
    post('/auth/forgot-password', 'forgotPassword', LIMITED, forgotPassword),
    post('/auth/reset-password', 'resetPassword', LIMITED, resetPassword),
    {
      method: 'GET',
      path: '/auth/email-confirmation',
      handler: 'auth.emailConfirmation',
      config: { prefix: '' },
      run: async (req, res) => {
        authorize(req, AUTH_ACTIONS.emailConfirmation);
        await confirmEmail(rt, req.query);
        // Strapi redirects to its `email_confirmation_redirection` setting, `/` when unset
        res.redirect((await advancedSettings(rt.ctx)).email_confirmation_redirection || '/');
      },
    },
    post('/auth/send-email-confirmation', 'sendEmailConfirmation', { prefix: '' }, sendEmailConfirmation),
    {
      method: 'POST',
      path: '/auth/change-password',
      handler: 'auth.changePassword',
      config: LIMITED,
      run: async (req, res) => {
        const auth = authorize(req, AUTH_ACTIONS.changePassword);
        res.json(await changePassword(rt, auth, req.body));
      },
    },
  ];
}
