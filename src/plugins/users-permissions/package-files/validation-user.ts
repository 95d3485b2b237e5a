/**
 * `@strapi/plugin-users-permissions/server/controllers/validation/user` for a project that
 * requires it without the package installed (its own `user.create` or `user.update`): the body
 * checks of Strapi 4.26's user actions, run by `@strapi/utils`' `validateYupSchema` as there, so a
 * bad body throws `@strapi/utils`' ValidationError (a 400) with yup's messages.
 *
 * `role` is an id, or a relation change `{ connect: [{ id }], disconnect: [{ id }] }`: a new user
 * needs one role to connect; an update may not disconnect the role without connecting another.
 */
import { createRequire } from 'node:module';
import type * as StrapiUtils from '@strapi/utils';

const { yup, validateYupSchema } = createRequire(import.meta.url)('@strapi/utils') as typeof StrapiUtils;

const idList = () => yup.array().of(yup.object().shape({ id: yup.strapiID().required() }));
const isRelationChange = (value: unknown) => typeof value === 'object';

const newUserRole = yup.lazy((value: unknown) =>
  isRelationChange(value)
    ? yup
        .object()
        .shape({ connect: idList().min(1, 'Users must have a role').required() })
        .required()
    : yup.strapiID().required(),
);

/** the role change as sent: Strapi reads `connect` from it to judge `disconnect` */
const changedRole = yup.lazy((value: unknown) => {
  if (!isRelationChange(value)) return yup.strapiID();
  const connect = (value as { connect?: unknown } | null)?.connect;
  // Strapi 4.26 reads `connect.length` unguarded (a 500 when it is missing); here only the missing field is reported
  const connectsNone = Array.isArray(connect) && connect.length === 0;
  return yup.object().shape({
    connect: idList().required(),
    disconnect: yup
      .array()
      .test('CheckDisconnect', 'Cannot remove role', (disconnect) => !(connectsNone && (disconnect?.length ?? 0) > 0))
      .required(),
  });
});

export const validateCreateUserBody = validateYupSchema(
  yup.object().shape({
    email: yup.string().email().required(),
    username: yup.string().min(1).required(),
    password: yup.string().min(1).required(),
    role: newUserRole,
  }),
);

export const validateUpdateUserBody = validateYupSchema(
  yup.object().shape({
    email: yup.string().email().min(1),
    username: yup.string().min(1),
    password: yup.string().min(1),
    role: changedRole,
  }),
);

export const validateDeleteRoleBody = validateYupSchema(yup.object().shape({ role: yup.strapiID().required() }));
