import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestService } from './server.js';

/**
 * A throwaway project with one `note` content-type plus `files` (path in the project → text): the
 * message its start-up fails with, or 'started'.
 */
export async function startUpError(files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-project-'));
  try {
    const schemaDir = join(dir, 'src', 'api', 'note', 'content-types', 'note');
    mkdirSync(schemaDir, { recursive: true });
    const info = { singularName: 'note', pluralName: 'notes', displayName: 'Note' };
    writeFileSync(join(schemaDir, 'schema.json'), JSON.stringify({ kind: 'collectionType', info, attributes: {} }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const service = await createTestService({ appDir: dir }).catch((err: Error) => err);
    if (!(service instanceof Error)) {
      await service.close();
      return 'started';
    }
    return service.message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
