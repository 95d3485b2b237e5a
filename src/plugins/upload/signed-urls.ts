/**
 * Reads of a private provider's files (Strapi's `isPrivate()`, e.g. an S3 bucket with a private
 * ACL): each populated file of that provider is answered with `getSignedUrl`'s address, and so is
 * each of its formats, as Strapi's upload plugin signs its entity service's results. Asked on
 * every read, as Strapi asks; files stored by another provider keep their url.
 */
import type { MediaUrlSigner } from '../../service-context.js';
import type { UploadProvider } from './provider.js';

type Doc = Record<string, unknown>;

function isDoc(value: unknown): value is Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The signer of a provider that can sign; undefined for one that cannot. */
export function mediaUrlSigner(provider: UploadProvider): MediaUrlSigner | undefined {
  const { signedUrl, isPrivate } = provider;
  if (!signedUrl || !isPrivate) return undefined;
  return async (file) => {
    if (file.provider !== provider.name || !(await isPrivate.call(provider))) return;
    const { _id, ...fields } = file;
    const sign = (part: Doc) => signedUrl.call(provider, part);
    const formats = isDoc(file.formats) ? Object.entries(file.formats).filter(([, format]) => isDoc(format)) : [];
    const [url, ...formatUrls] = await Promise.all([
      sign({ id: _id, ...fields }),
      ...formats.map(([, format]) => sign(format as Doc)),
    ]);
    file.url = url;
    if (formats.length > 0)
      file.formats = {
        ...(file.formats as Doc),
        ...Object.fromEntries(formats.map(([key, format], i) => [key, { ...(format as Doc), url: formatUrls[i] }])),
      };
  };
}
