// The write path shared by REST (and GraphQL mutations): payload → validation → checks → write.
export { readDataPayload, dataObject, isPlainObject, type WriteData } from './payload.js';
export { createEntry, updateEntry, loadEntry, resolveLocale, type CreateOptions, type WriteContext } from './entry.js';
export { deleteEntry, removeReferences } from './references.js';
export { writableContentType } from './content-type.js';
export { entries, updateEntries, type StoredEntry } from './collection.js';
export { atRevision, NEXT_REVISION, retryWhileStale, StaleEntry } from './revision.js';
export { leaseTiming, withLease, withNamedLease } from './lease.js';
export { localeGroupLease, withoutIds } from './shared-attributes.js';
export { LocaleTakenError, SingleEntryTaken } from './checks.js';
export { allowsMime, mediaKind, notAllowedMessage } from './media-types.js';
export { issue, messages, pathLabel } from './messages.js';
export { withLifecycles } from './lifecycle-hooks.js';
export { asOneTransaction } from './scope.js';
export { flushSettled } from './pending-settles.js';
export { startSettleRecovery } from './settle-recovery.js';
