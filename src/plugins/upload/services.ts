/**
 * The upload plugin's services of a running service (Strapi 4.26's `upload`, `image-manipulation`,
 * `provider`, and the plugin object's `provider`), made once per service, and the ones its own
 * paths call: the app's when it replaced or wrapped a factory (`plugin.services.upload = …` in
 * `src/extensions/upload/strapi-server`), else these, which the app may have changed in place
 * (`strapi.plugin('upload').service('upload').uploadFileAndPersist = …`).
 */
import { ValidationError } from '../../errors/index.js';
import type { ServiceContext } from '../../service-context.js';
import { isPlainObject } from '../../write/index.js';
import type { UploadRuntime } from './files.js';
import { createImageManipulationService, type ImageManipulationService } from './images.js';
import {
  createProviderService,
  createStrapiProvider,
  type ProviderService,
  type StrapiUploadProvider,
} from './provider-service.js';
import { createUploadService, imageSettings, type MediaSettings, type UploadService } from './upload-service.js';

export interface UploadServices {
  upload: UploadService;
  'image-manipulation': ImageManipulationService;
  provider: ProviderService;
  /** `strapi.plugin('upload').provider` */
  strapiProvider: StrapiUploadProvider;
}

const made = new WeakMap<object, UploadServices>();

/** Strapi's default view settings of the Media Library (`getConfiguration()`). */
const VIEW_CONFIGURATION = { pageSize: 10, sort: 'createdAt:DESC' };

function appService<T>(ctx: ServiceContext, name: string, own: T): T {
  const changed = ctx.appPluginService?.('upload', name);
  return isPlainObject(changed) ? (changed as T) : own;
}

/** The plugin's own services of a running service, made once (at the plugin's register, on its context). */
export function ownUploadServices(ctx: ServiceContext, rt: UploadRuntime): UploadServices {
  const known = made.get(ctx.models);
  if (known) return known;
  const media: { settings: MediaSettings; configuration: Record<string, unknown> } = {
    settings: {
      sizeOptimization: rt.settings.sizeOptimization,
      responsiveDimensions: rt.settings.responsiveDimensions,
      autoOrientation: rt.settings.autoOrientation,
    },
    configuration: { ...VIEW_CONFIGURATION },
  };
  const strapiProvider = createStrapiProvider(rt);
  const images = createImageManipulationService(imageSettings(rt, media));
  const provider = createProviderService(rt, strapiProvider);
  const services: UploadServices = {
    'image-manipulation': images,
    provider,
    strapiProvider,
    upload: createUploadService(
      ctx,
      rt,
      {
        images: () => appService(ctx, 'image-manipulation', services['image-manipulation']),
        provider: () => appService(ctx, 'provider', services.provider),
      },
      media,
    ),
  };
  made.set(ctx.models, services);
  return services;
}

/** The upload service the plugin's own paths call: the app's where it changed the factory. */
export function uploadServiceOf(ctx: ServiceContext, rt: UploadRuntime | undefined): UploadService {
  if (!rt) throw new ValidationError('The upload plugin is not enabled');
  return appService(ctx, 'upload', ownUploadServices(ctx, rt).upload);
}
