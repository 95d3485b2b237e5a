import type { Request } from 'express';
import { AUTH_ACTIONS } from '../../../access/actions.js';
import { operationContext } from '../../../operations/request-context.js';
import type { PluginRoute } from '../../types.js';
import {
  changePassword,
  confirmEmail,
  forgotPassword,
  login,
  providerSession,
  register,
  resetPassword,
  sendEmailConfirmation,
} from '../auth-operations.js';
import { advancedSettings } from '../advanced-settings.js';
import { connect } from '../providers/connect-flow.js';
import { enabledProvider } from '../providers/grant-settings.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';

/** the routes Strapi guards with its rate limiter */
const LIMITED = { prefix: '', middlewares: ['plugin::users-permissions.rateLimit'] };

/** `/auth/local`, `/auth/local/register`, `/auth/forgot-password`, `/auth/reset-password`, `/auth/change-password`, the e-mail confirmation routes, the providers' connect and callback. */
export function authRoutes(rt: UsersPermissionsRuntime): PluginRoute[] {
  // one action for both routes, as Strapi's `auth.callback`: no provider in the path is `local`
  // (the e-mail provider of the grant settings), another signs in with its access token
  const callback: PluginRoute['run'] = async (req, res) => {
    authorize(req, AUTH_ACTIONS.callback);
    const provider = req.params.provider === undefined ? 'local' : String(req.params.provider);
    const grant = await enabledProvider(rt, provider);
    // a GET callback carries no body
    if (provider === 'local') res.json(await login(rt, req.method === 'GET' ? (req.body ?? {}) : req.body));
    else res.json(await providerSession(rt, provider, req.query, grant));
  };
  const connectLeg =
    (leg: 'authorize' | 'callback'): PluginRoute['run'] =>
    async (req, res) => {
      authorize(req, AUTH_ACTIONS.connect);
      await connect(rt, req, res, leg);
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
    // the provider's authorization page, and its way back (Strapi's `/connect/(.*)`, run by grant)
    {
      method: 'GET',
      path: '/connect/:provider',
      handler: 'auth.connect',
      config: LIMITED,
      run: connectLeg('authorize'),
    },
    {
      method: 'GET',
      path: '/connect/:provider/callback',
      handler: 'auth.connect',
      config: LIMITED,
      run: connectLeg('callback'),
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
