/**
 * What the engine reports about itself (recovery, compaction, journal failures, closed
 * connections): `startEngine({ log })` receives each event; the service forwards them to its
 * logger (src/database/engine-thread.ts), `content-service engine` prints them.
 */
export interface EngineEvent {
  level: 'debug' | 'info' | 'warn' | 'error';
  /** a stable name, e.g. `recovery.torn-tail`, `compaction.finished`, `journal.write-failed` */
  event: string;
  message: string;
  details?: Record<string, unknown>;
}

export type EngineLog = (event: EngineEvent) => void;
