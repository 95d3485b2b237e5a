import { UPLOAD_FILE_UID } from '../../content-types/index.js';
import type { Plugin } from '../types.js';

/**
 * The upload plugin's `plugin::upload.file` content-type, so `media` attributes can point at files.
 * (Upload routes are not implemented yet.)
 */
export const uploadPlugin: Plugin = {
  name: 'upload',
  contentTypes: () => [
    {
      uid: UPLOAD_FILE_UID,
      namespace: 'plugin',
      source: 'plugin upload (built in)',
      schema: {
        kind: 'collectionType',
        collectionName: 'files',
        info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
        options: {},
        attributes: {
          name: { type: 'string', required: true },
          alternativeText: { type: 'string' },
          caption: { type: 'string' },
          width: { type: 'integer' },
          height: { type: 'integer' },
          formats: { type: 'json' },
          hash: { type: 'string', required: true },
          ext: { type: 'string' },
          mime: { type: 'string', required: true },
          size: { type: 'decimal', required: true },
          url: { type: 'string', required: true },
          previewUrl: { type: 'string' },
          provider: { type: 'string', required: true },
          provider_metadata: { type: 'json' },
        },
      },
    },
  ],
};
