/**
 * `@strapi/plugin-users-permissions/server/controllers/validation/auth` for a project that
 * requires it without the package installed (its own `auth.register` or `auth.callback`, mostly):
 * the body checks of Strapi 4.26's auth actions, as yup schemas run by `@strapi/utils`'
 * `validateYupSchema` (strict, every issue at once), so a bad body throws `@strapi/utils`'
 * ValidationError with yup's messages ("email must be a valid email"), a 400 as in Strapi.
 */
import { createRequire } from 'node:module';
import type * as StrapiUtils from '@strapi/utils';

const { yup, validateYupSchema } = createRequire(import.meta.url)('@strapi/utils') as typeof StrapiUtils;

const requiredText = () => yup.string().required();
const requiredEmail = () => yup.string().email().required();

export const validateCallbackBody = validateYupSchema(
  yup.object({ identifier: requiredText(), password: requiredText() }),
);

export const validateRegisterBody = validateYupSchema(
  yup.object({ email: requiredEmail(), username: requiredText(), password: requiredText() }),
);

export const validateSendEmailConfirmationBody = validateYupSchema(yup.object({ email: requiredEmail() }));

export const validateEmailConfirmationBody = validateYupSchema(yup.object({ confirmation: requiredText() }));

/** the three below refuse keys they do not name ("this field has unspecified keys: …") */
export const validateForgotPasswordBody = validateYupSchema(yup.object({ email: requiredEmail() }).noUnknown());

export const validateResetPasswordBody = validateYupSchema(
  yup.object({ password: requiredText(), passwordConfirmation: requiredText(), code: requiredText() }).noUnknown(),
);

export const validateChangePasswordBody = validateYupSchema(
  yup
    .object({
      password: requiredText(),
      passwordConfirmation: requiredText().oneOf([yup.ref('password')], 'Passwords do not match'),
      currentPassword: requiredText(),
    })
    .noUnknown(),
);
