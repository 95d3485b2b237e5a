/**
 * Populated files of a private upload provider answered with signed addresses, as Strapi's upload
 * plugin decorates its entity service: every file a read populated (in entries, components and
 * dynamic zones, at any depth) is handed to the provider's signer before the answer is formatted.
 * Files read as entries of their own (`/api/upload/files`) are not signed, as in Strapi.
 */
import { UPLOAD_FILE_UID } from '../content-types/index.js';
import type { MediaUrlSigner } from '../service-context.js';
import type { EntrySelection, PopulateMap } from './read-tree.js';

type Doc = Record<string, unknown>;

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function docs(value: unknown): Doc[] {
  if (Array.isArray(value)) return value.filter(isDoc);
  return isDoc(value) ? [value] : [];
}

/** The populated file documents of `entries` (each once), read as `selection` describes. */
function populatedFiles(entries: Doc[], selection: EntrySelection): Set<Doc> {
  const files = new Set<Doc>();
  // relations inside components are fetched onto the entry that holds them (`holder`)
  const visit = (holder: Doc, value: Doc, populate: PopulateMap) => {
    for (const node of Object.values(populate)) {
      if (node.kind === 'relation') {
        if (node.count) continue;
        const fetched = docs(holder[node.as]);
        if (node.relation.target === UPLOAD_FILE_UID) fetched.forEach((file) => files.add(file));
        else fetched.forEach((entry) => visit(entry, entry, node.selection.populate));
      } else if (node.kind === 'morph') {
        continue;
      } else if (node.kind === 'component') {
        docs(value[node.attribute]).forEach((item) => visit(holder, item, node.selection.populate));
      } else {
        for (const item of docs(value[node.attribute])) {
          const selected = node.components[String(item.__component)];
          if (selected) visit(holder, item, selected.populate);
        }
      }
    }
  };
  entries.forEach((entry) => visit(entry, entry, selection.populate));
  return files;
}

/** Signs the files `entries` populated, in place; nothing when the read populated none. */
export async function signPopulatedMedia(
  entries: Doc[],
  selection: EntrySelection,
  signer: MediaUrlSigner | undefined,
): Promise<void> {
  if (!signer || Object.keys(selection.populate).length === 0) return;
  await Promise.all([...populatedFiles(entries, selection)].map((file) => signer(file)));
}
