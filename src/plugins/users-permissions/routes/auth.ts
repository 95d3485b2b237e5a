import type { RequestHandler, Router } from 'express';
import { AUTH_ACTIONS } from '../../../access/actions.js';
import { ApplicationError } from '../../../errors/index.js';
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
import { rateLimit } from '../rate-limit.js';
import { authorize, type UsersPermissionsRuntime } from '../runtime.js';

const PROVIDER_DISABLED = 'This provider is disabled';

/** `/auth/local`, `/auth/local/register`, `/auth/forgot-password`, `/auth/reset-password`, `/auth/change-password`, the e-mail confirmation routes, the (disabled) OAuth connect and callback. */
export function authRoutes(rt: UsersPermissionsRuntime, router: Router): void {
  const limited: RequestHandler[] = rt.settings.ratelimit.enabled ? [rateLimit(rt.settings.ratelimit)] : [];

  router.post('/auth/local/register', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.register);
    res.json(await register(rt, req.body));
  });
  router.post('/auth/local', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.callback);
    res.json(await login(rt, req.body));
  });
  router.post('/auth/forgot-password', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.forgotPassword);
    res.json(await forgotPassword(rt, req.body));
  });
  router.post('/auth/reset-password', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.resetPassword);
    res.json(await resetPassword(rt, req.body));
  });
  router.post('/auth/change-password', ...limited, async (req, res) => {
    const auth = authorize(req, AUTH_ACTIONS.changePassword);
    res.json(await changePassword(rt, auth, req.body));
  });
  router.get('/auth/email-confirmation', async (req, res) => {
    authorize(req, AUTH_ACTIONS.emailConfirmation);
    await confirmEmail(rt, req.query);
    // Strapi redirects to its `email_confirmation_redirection` setting, `/` when unset
    res.redirect((await advancedSettings(rt.ctx)).email_confirmation_redirection || '/');
  });
  router.post('/auth/send-email-confirmation', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.sendEmailConfirmation);
    res.json(await sendEmailConfirmation(rt, req.body));
  });
  // No OAuth provider is enabled here: Strapi answers a connect or a callback of any provider so;
  // the `local` callback is the login.
  router.get('/connect/:provider', () => {
    throw new ApplicationError(PROVIDER_DISABLED);
  });
  router.get('/auth/:provider/callback', ...limited, async (req, res) => {
    authorize(req, AUTH_ACTIONS.callback);
    if (req.params.provider !== 'local') throw new ApplicationError(PROVIDER_DISABLED);
    res.json(await login(rt, req.body ?? {}));
  });
}
