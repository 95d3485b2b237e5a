import { componentCounterKey, type Models } from '../models/index.js';
import type { NewComponent } from './build.js';

/**
 * Gives every new component its id: per component uid, consecutive ids reserved in one counter
 * call and handed out in the order the components were built (schema order, nested first,
 * arrays in order), which reproduces Strapi's ids.
 */
export async function assignComponentIds(models: Models, components: NewComponent[]): Promise<void> {
  const byUid = new Map<string, NewComponent[]>();
  for (const component of components) byUid.set(component.uid, [...(byUid.get(component.uid) ?? []), component]);
  for (const [uid, list] of byUid) {
    const first = await models.counters.next(componentCounterKey(uid), list.length);
    list.forEach((component, i) => {
      component.target.id = first + i;
    });
  }
}
