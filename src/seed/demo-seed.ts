import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentService } from '../app.js';
import * as operations from '../operations/index.js';
import { createLocalization } from '../operations/localizations.js';
import { register } from '../plugins/users-permissions/auth-operations.js';
import { usersPermissionsRuntime } from '../plugins/users-permissions/index.js';
import { UNRESTRICTED } from '../query/access.js';

/** One operation of a seed file: a create, a localization, an update, a single type's PUT or a user's registration. */
interface SeedOperation {
  contentType?: string;
  body: Record<string, unknown>;
  locale?: string;
  localizationOf?: number;
  updateId?: number;
  single?: boolean;
  register?: boolean;
}

/**
 * Demo content for a first start: `<appDir>/seed.json`, replayed through the same operations as
 * the REST API (validation included) when no api content-type holds an entry yet. Returns the
 * number of operations applied (0 when there is no file, the database has content, or in production).
 */
export async function seedDemoContent(service: ContentService): Promise<number> {
  const { context } = service;
  const file = join(context.config.appDir, 'seed.json');
  // demo users have well-known passwords: never in production
  if (context.config.env === 'production' || !existsSync(file)) return 0;
  const apiTypes = context.registry.listContentTypes().filter((ct) => ct.namespace === 'api');
  for (const ct of apiTypes) {
    if ((await context.models.collection(ct.uid).estimatedDocumentCount()) > 0) return 0;
  }
  const seed = JSON.parse(readFileSync(file, 'utf8')) as { operations: SeedOperation[] };
  const ctx = { ...context, access: UNRESTRICTED };
  const uidOf = (name: string | undefined) => {
    const ct = apiTypes.find((t) => t.pluralName === name || t.singularName === name);
    if (!ct) throw new Error(`${file}: unknown content-type "${String(name)}"`);
    return ct.uid;
  };
  for (const op of seed.operations) {
    if (op.register) {
      const runtime = usersPermissionsRuntime(context);
      if (runtime) await register(runtime, op.body);
    } else if (op.single) {
      await operations.upsertSingle(ctx, uidOf(op.contentType), { data: op.body }, {});
    } else if (op.updateId !== undefined) {
      await operations.update(ctx, uidOf(op.contentType), String(op.updateId), { data: op.body }, {});
    } else if (op.localizationOf !== undefined) {
      await createLocalization(
        ctx,
        uidOf(op.contentType),
        String(op.localizationOf),
        { ...op.body, locale: op.locale },
        {},
      );
    } else {
      await operations.create(
        ctx,
        uidOf(op.contentType),
        { data: op.locale ? { ...op.body, locale: op.locale } : op.body },
        {},
      );
    }
  }
  return seed.operations.length;
}
