/**
 * The order Strapi 4.26 runs every plugin's register and bootstrap in, its loader's
 * (`getEnabledPlugins`): its internal plugins first (content-manager, content-type-builder, email,
 * upload, content-releases), then the plugins `config/plugins` declares, in its order, then the
 * other installed ones in the app's package.json order; the app's src/index after all of them.
 * The built-in plugins here that are packages of their own there (users-permissions, i18n,
 * graphql) take their package's place (`@strapi/plugin-<name>` among the dependencies), or come
 * after the others when the app does not list it.
 */
import type { LoadedPlugin } from './plugin-loader.js';

const INTERNAL = ['content-manager', 'content-type-builder', 'email', 'upload', 'content-releases'];

export type PluginStep = { kind: 'built-in'; name: string } | { kind: 'project'; plugin: LoadedPlugin };

export interface PluginOrderInput {
  builtIns: readonly string[];
  /** the project's plugins in Strapi's order among themselves (inStrapiOrder) */
  project: readonly LoadedPlugin[];
  /** the plugin names the app's own config/plugins declares, in its order */
  declared: readonly string[];
  /** the app's package.json dependencies, in their order */
  dependencies: readonly string[];
}

export function strapiPluginSteps({ builtIns, project, declared, dependencies }: PluginOrderInput): PluginStep[] {
  const rank = (name: string, packageName: string | undefined): [number, number] => {
    if (INTERNAL.includes(name)) return [0, INTERNAL.indexOf(name)];
    const at = declared.indexOf(name);
    if (at !== -1) return [1, at];
    const installed = packageName === undefined ? -1 : dependencies.indexOf(packageName);
    return installed === -1 ? [3, 0] : [2, installed];
  };
  const ranked = [
    ...builtIns.map((name) => ({
      step: { kind: 'built-in', name } as PluginStep,
      at: rank(name, `@strapi/plugin-${name}`),
    })),
    ...project.map((plugin) => ({
      step: { kind: 'project', plugin } as PluginStep,
      at: rank(plugin.name, plugin.thirdParty ? plugin.label : undefined),
    })),
  ];
  // a stable sort: equal ranks keep the built-ins first, and the project's plugins their order
  return ranked.sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]).map(({ step }) => step);
}
