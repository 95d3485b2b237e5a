/**
 * `strapi.eventHub` of Strapi v4: named listeners (`on`, `once`, `off`...) and subscribers that
 * hear every event (`subscribe`). `emit` runs the listeners of the event, then each subscriber, one
 * after the other, awaiting each, as Strapi's does. Besides, every emitted event is handed to
 * `forward` first (the webhook runner, which queues it and never waits).
 */
export type EventListener = (...args: unknown[]) => unknown;
export type EventSubscriber = (eventName: string, ...args: unknown[]) => unknown;

export interface EventHub {
  emit(eventName: string, ...args: unknown[]): Promise<void>;
  subscribe(subscriber: EventSubscriber): () => void;
  unsubscribe(subscriber: EventSubscriber): void;
  on(eventName: string, listener: EventListener): () => void;
  off(eventName: string, listener: EventListener): void;
  once(eventName: string, listener: EventListener): () => void;
  destroy(): EventHub;
  removeListener(eventName: string, listener: EventListener): void;
  removeAllListeners(): EventHub;
  addListener(eventName: string, listener: EventListener): () => void;
}

/** The hub and what only the service asks of it. */
export interface ServiceEventHub {
  hub: EventHub;
  /** whether a listener or subscriber of the app's would hear `eventName` */
  hears(eventName: string): boolean;
}

export function createEventHub(forward: (eventName: string, info: unknown) => void): ServiceEventHub {
  const listeners = new Map<string, EventListener[]>();
  let subscribers: EventSubscriber[] = [];

  const hub: EventHub = {
    async emit(eventName, ...args) {
      forward(eventName, args[0]);
      for (const listener of [...(listeners.get(eventName) ?? [])]) await listener(...args);
      for (const subscriber of [...subscribers]) await subscriber(eventName, ...args);
    },
    subscribe(subscriber) {
      subscribers.push(subscriber);
      return () => hub.unsubscribe(subscriber);
    },
    unsubscribe(subscriber) {
      subscribers = subscribers.filter((s) => s !== subscriber);
    },
    on(eventName, listener) {
      listeners.set(eventName, [...(listeners.get(eventName) ?? []), listener]);
      return () => hub.off(eventName, listener);
    },
    off(eventName, listener) {
      const list = listeners.get(eventName) ?? [];
      const at = list.indexOf(listener);
      if (at < 0) return;
      const rest = [...list.slice(0, at), ...list.slice(at + 1)];
      if (rest.length > 0) listeners.set(eventName, rest);
      else listeners.delete(eventName);
    },
    once(eventName, listener) {
      const wrapper: EventListener = (...args) => {
        hub.off(eventName, wrapper);
        return listener(...args);
      };
      return hub.on(eventName, wrapper);
    },
    destroy() {
      listeners.clear();
      subscribers = [];
      return hub;
    },
    removeListener: (eventName, listener) => hub.off(eventName, listener),
    removeAllListeners: () => hub.destroy(),
    addListener: (eventName, listener) => hub.on(eventName, listener),
  };
  return { hub, hears: (eventName) => subscribers.length > 0 || listeners.has(eventName) };
}
