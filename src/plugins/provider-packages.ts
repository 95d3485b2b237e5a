/**
 * The provider packages a Strapi v4 app installs for its plugins (`config/plugins`
 * `<plugin>.config.provider`), found as Strapi finds them: `@strapi/provider-<kind>-<name>`, else
 * the package `<name>` itself, resolved from the app's own dependencies (never this service's).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type ProviderKind = 'email' | 'upload';

/** A provider package, loaded: the file it resolved to and its module (a default export unwrapped). */
export interface ProviderModule {
  file: string;
  module: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The package names Strapi tries for a provider name, in its order. */
export function providerPackages(kind: ProviderKind, provider: string): string[] {
  const name = provider.toLowerCase();
  return [`@strapi/provider-${kind}-${name}`, name];
}

/**
 * The package to install for a provider name: the name itself when it already is a provider
 * package's (`strapi-provider-upload-do`, `@org/provider-upload-x`), else Strapi's `@strapi` one.
 */
function packageToInstall(kind: ProviderKind, provider: string): string {
  const [official, own = provider] = providerPackages(kind, provider);
  const isPackageName = own.startsWith('@') || own.includes(`provider-${kind}-`);
  return isPackageName ? own : (official ?? own);
}

/** What start-up says of a provider `config/plugins` names that the app has not installed. */
export function notInstalled(kind: ProviderKind, provider: string): string {
  const install = packageToInstall(kind, provider);
  return `the ${kind === 'email' ? 'e-mail' : kind} provider "${provider}" is not installed: run "npm install ${install}" in the app directory`;
}

/** The installed provider package, loaded; undefined when none of its names is installed in the app. */
export function requireProvider(appDir: string, kind: ProviderKind, provider: string): ProviderModule | undefined {
  const appRequire = createRequire(join(appDir, 'package.json'));
  for (const name of providerPackages(kind, provider)) {
    let file: string;
    try {
      file = appRequire.resolve(name);
    } catch {
      continue;
    }
    const loaded: unknown = appRequire(file);
    const module = isRecord(loaded) && isRecord(loaded.default) ? loaded.default : loaded;
    return { file, module: isRecord(module) ? module : {} };
  }
  return undefined;
}
