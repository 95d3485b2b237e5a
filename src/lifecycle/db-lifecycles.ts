/**
 * `strapi.db.lifecycles` of Strapi v4: the content-types' `lifecycles` files run first, then each
 * subscriber in the order it subscribed. An object subscriber (`{ models?, beforeCreate(event)... }`)
 * hears the actions it names, of its `models` or of all; a function hears every event. Each
 * subscriber keeps its own `event.state` from the before- to the after-hook of one call.
 */
import { fromStrapiUtilsError } from '../errors/index.js';
import type { ContentType, Registry } from '../content-types/index.js';
import type { DbLifecycles, LifecycleEventProperties } from '../service-context.js';

export type LifecycleEvent = LifecycleEventProperties & {
  action: string;
  model: LifecycleModel;
  state: Record<string, unknown>;
};
type Hook = (event: LifecycleEvent) => unknown;
export type HookObject = { models?: string[] } & Record<string, unknown>;
export type Subscriber = Hook | HookObject;

/** The model an event names, as Strapi's database metadata describes it. */
export interface LifecycleModel {
  uid: string;
  singularName: string;
  tableName: string;
  collectionName: string;
  attributes: ContentType['attributes'];
  lifecycles: HookObject;
}

export interface DbLifecyclesProvider extends DbLifecycles {
  /** adds a subscriber; answers the function that removes it */
  subscribe(subscriber: Subscriber): () => void;
  /** removes every subscriber, the content-types' files included (as Strapi's `clear`) */
  clear(): void;
}

function isSubscriber(value: unknown): value is Subscriber {
  return typeof value === 'function' || (typeof value === 'object' && value !== null && !Array.isArray(value));
}

export function createDbLifecycles(
  registry: Registry,
  fileHooks: ReadonlyMap<string, HookObject>,
): DbLifecyclesProvider {
  // the content-types' files act as one subscriber, as Strapi's models subscriber
  const filesSubscriber: Hook = async (event) => {
    const hook = fileHooks.get(event.model.uid)?.[event.action];
    if (typeof hook === 'function') await (hook as Hook)(event);
  };
  let subscribers: Subscriber[] = [filesSubscriber];

  const hears = (subscriber: Subscriber, action: string, uid: string): boolean => {
    if (subscriber === filesSubscriber) return typeof fileHooks.get(uid)?.[action] === 'function';
    if (typeof subscriber === 'function') return true;
    return typeof subscriber[action] === 'function' && (!subscriber.models || subscriber.models.includes(uid));
  };

  const model = (uid: string): LifecycleModel => {
    const schema = registry.contentType(uid);
    const singularName = schema?.singularName ?? uid;
    const collectionName = schema?.collectionName ?? uid;
    return {
      uid,
      singularName,
      tableName: collectionName,
      collectionName,
      attributes: schema?.attributes ?? {},
      lifecycles: fileHooks.get(uid) ?? {},
    };
  };

  return {
    subscribe(subscriber) {
      if (!isSubscriber(subscriber))
        throw new TypeError('strapi.db.lifecycles.subscribe: invalid subscriber, expected a function or an object');
      subscribers.push(subscriber);
      return () => {
        subscribers = subscribers.filter((s) => s !== subscriber);
      };
    },
    clear() {
      subscribers = [];
    },
    listens: (action, uid) => subscribers.some((s) => hears(s, action, uid)),
    async run(action, uid, properties, states = new Map()) {
      for (const subscriber of [...subscribers]) {
        if (!hears(subscriber, action, uid)) continue;
        const event: LifecycleEvent = { action, model: model(uid), state: states.get(subscriber) ?? {}, ...properties };
        try {
          if (typeof subscriber === 'function') await subscriber(event);
          else await (subscriber[action] as Hook).call(subscriber, event);
        } catch (err) {
          throw fromStrapiUtilsError(err);
        }
        states.set(subscriber, event.state);
      }
      return states;
    },
  };
}
