import { componentCounterKey, type Models } from '../models/index.js';
import type { NewComponent } from './build.js';

/**
 * Gives every new component its id: per component uid, consecutive ids reserved in one counter
 * call and handed out in the order Strapi 4's inserts reach its database. Its entity service
 * writes the top-level attributes one after the other and the items of a list concurrently, a
 * component once its nested ones are written: so within an attribute, components that wait for
 * fewer round trips come first, then in the order they were called (build.ts keeps that clock).
 */
export async function assignComponentIds(models: Models, components: NewComponent[]): Promise<void> {
  const byUid = new Map<string, NewComponent[]>();
  for (const component of components) byUid.set(component.uid, [...(byUid.get(component.uid) ?? []), component]);
  for (const [uid, list] of byUid) {
    list.sort((a, b) => a.attribute - b.attribute || a.time - b.time || a.order - b.order);
    const first = await models.counters.next(componentCounterKey(uid), list.length);
    list.forEach((component, i) => {
      component.target.id = first + i;
    });
  }
}
