import { commandError } from './errors.js';

/**
 * Cooperative execution. A read command runs as a generator (`Work<T>`) that the server resumes
 * from the event loop in time slices, so a long command does not hold the other connections: their
 * commands run between its slices. Loops over documents call `tick()` (a counter; every few hundred
 * units a clock read), costly steps call `checkpoint()`; both throw MaxTimeMSExpired once the
 * command has used its time budget, and answer true when its slice is over — a generator then
 * yields (`if (tick()) yield;`), synchronous code carries on.
 *
 * The budget counts the command's own execution time (the slices it ran), not the time it waited
 * while other commands ran: under load every command gets its share, and only work that really
 * takes long runs out of budget. Code that yields must not hold a live iterator over a collection's
 * Map across a yield (writes may run in between): take an array first.
 */
export type Work<T> = Generator<void, T, void>;

/** What a command may still spend; `remainingMs` shrinks by every slice it runs. */
export interface TimeBudget {
  remainingMs: number;
}

interface Slice {
  /** performance.now() past which the command is out of budget */
  limit: number;
  /** performance.now() at which the slice should end (the work yields at its next check) */
  end: number;
}

const UNLIMITED: Slice = { limit: Infinity, end: Infinity };
/**
 * Units between clock reads adapt to what a unit costs (a native filter: tens of ns; a join
 * running a sub-pipeline: far more), aiming at one read per CHECK_EVERY_MS of work: cheap units
 * are not slowed down by the clock, costly ones still give the loop back on time. Every slice
 * starts from MIN_UNITS and grows at most GROWTH times a check, so a costly command never inherits
 * the long stretch between checks of a cheap one.
 */
const CHECK_EVERY_MS = 0.25;
const MIN_UNITS = 16;
const MAX_UNITS = 1024;
const GROWTH = 4;

let slice: Slice = UNLIMITED;
/** time spent in `unbudgeted` work so far (runSlice leaves it out of the command's charge) */
let unbudgetedMs = 0;
let units = 0;
let unitsPerCheck = MIN_UNITS;
let lastCheck = 0;

/** Counts `n` units of work (documents filtered, joined...); see the module comment. */
export function tick(n = 1): boolean {
  units += n;
  if (units < unitsPerCheck) return false;
  if (slice === UNLIMITED) {
    units = 0;
    return false;
  }
  const now = performance.now();
  const elapsed = now - lastCheck;
  if (elapsed > 0) {
    const scaled = Math.round((unitsPerCheck * CHECK_EVERY_MS) / elapsed);
    unitsPerCheck = Math.min(MAX_UNITS, unitsPerCheck * GROWTH, Math.max(MIN_UNITS, scaled));
  }
  return check(now);
}

/** Reads the clock now (before or after a costly step); see the module comment. */
export function checkpoint(): boolean {
  if (slice === UNLIMITED) return false;
  return check(performance.now());
}

function check(now: number): boolean {
  units = 0;
  lastCheck = now;
  if (now > slice.limit) throw commandError('MaxTimeMSExpired', 'operation exceeded time limit');
  return now >= slice.end;
}

/** Runs one slice of work (`step`: as far as its checks allow, about `sliceMs`) and charges it to `budget`. */
export function runSlice<T>(step: () => T, budget: TimeBudget, sliceMs: number): T {
  const saved = slice;
  const start = performance.now();
  const excludedBefore = unbudgetedMs;
  slice = { limit: start + budget.remainingMs, end: start + sliceMs };
  units = 0;
  unitsPerCheck = MIN_UNITS;
  lastCheck = start;
  try {
    return step();
  } finally {
    slice = saved;
    budget.remainingMs -= performance.now() - start - (unbudgetedMs - excludedBefore);
  }
}

/**
 * Runs `fn`, work the engine owes rather than the command asked for (building an index left to
 * build after a start-up), without charging its time to the running command: the first read after
 * a restart is not refused for the index it happened to need.
 */
export function unbudgeted<T>(fn: () => T): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    const spent = performance.now() - start;
    unbudgetedMs += spent;
    if (slice !== UNLIMITED) slice = { limit: slice.limit + spent, end: slice.end + spent };
    lastCheck += spent;
  }
}

/** Runs work to the end without giving the event loop back (its checks still enforce the budget). */
export function finish<T>(work: Work<T>): T {
  let step = work.next();
  while (!step.done) step = work.next();
  return step.value;
}

/** `items.filter(keep)`, yielding between slices. */
export function* filterWork<T>(items: readonly T[], keep: (item: T) => boolean): Work<T[]> {
  const out: T[] = [];
  for (let i = filterUntilDue(items, keep, out, 0); i < items.length; i = filterUntilDue(items, keep, out, i)) yield;
  return out;
}

/** `items.map(fn)`, yielding between slices. */
export function* mapWork<T, U>(items: readonly T[], fn: (item: T) => U): Work<U[]> {
  const out: U[] = new Array<U>(items.length);
  for (let i = mapUntilDue(items, fn, out, 0); i < items.length; i = mapUntilDue(items, fn, out, i)) yield;
  return out;
}

// The loops run in plain functions (V8 optimizes them better than loops inside a generator), in
// blocks of BLOCK items between ticks, until the slice is over; they return where to go on from.
const BLOCK = 32;

function filterUntilDue<T>(items: readonly T[], keep: (item: T) => boolean, out: T[], from: number): number {
  let i = from;
  while (i < items.length) {
    const end = Math.min(items.length, i + BLOCK);
    for (; i < end; i++) {
      const item = items[i] as T;
      if (keep(item)) out.push(item);
    }
    if (tick(BLOCK)) return i;
  }
  return i;
}

function mapUntilDue<T, U>(items: readonly T[], fn: (item: T) => U, out: U[], from: number): number {
  let i = from;
  while (i < items.length) {
    const end = Math.min(items.length, i + BLOCK);
    for (; i < end; i++) out[i] = fn(items[i] as T);
    if (tick(BLOCK)) return i;
  }
  return i;
}

/** Whether a handler's result is work still to run (a generator) rather than a finished value. */
export function isWork<T>(value: T | Work<T>): value is Work<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Work<T>).next === 'function' &&
    typeof (value as Work<T>).throw === 'function'
  );
}
