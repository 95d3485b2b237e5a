/**
 * `strapi.cron` of Strapi v4 and `config/server` `cron: { enabled, tasks }`: tasks keyed by their
 * rule (`'0 * * * *': ({ strapi }) => …`) or by name (`myJob: { task, options: { rule, tz } }`),
 * scheduled with node-schedule (Strapi's own scheduler, so rules, dates and options read the same).
 * Jobs start once bootstrap is over; a task that throws is logged and the job goes on.
 */
import nodeSchedule from 'node-schedule';
import { ConfigError, type ServiceConfig } from '../config/index.js';
import type { Logger } from '../logger.js';

type TaskFunction = (args: { strapi: unknown }, ...rest: unknown[]) => unknown;
type Rule = Parameters<nodeSchedule.Job['schedule']>[0];

interface JobSpec {
  job: nodeSchedule.Job;
  options: Rule;
  name: string | null;
}

export interface CronService {
  add(tasks: Record<string, unknown>): CronService;
  remove(name: string): CronService;
  start(): CronService;
  stop(): CronService;
  destroy(): CronService;
  readonly jobs: JobSpec[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The task function and its schedule of one entry; anything else is refused as Strapi refuses it. */
function taskOf(tasks: Record<string, unknown>, key: string): { fn: TaskFunction; options: Rule; name: string | null } {
  const value = tasks[key];
  if (typeof value === 'function') return { fn: value.bind(tasks) as TaskFunction, options: key, name: null };
  if (isRecord(value) && typeof value.task === 'function')
    return { fn: value.task.bind(value) as TaskFunction, options: value.options as Rule, name: key };
  throw new Error(`Could not schedule a cron job for "${key}": no function found.`);
}

export function createCronService(strapi: () => unknown, logger: Logger): CronService {
  let specs: JobSpec[] = [];
  let running = false;
  const service: CronService = {
    add(tasks = {}) {
      for (const key of Object.keys(tasks)) {
        const { fn, options, name } = taskOf(tasks, key);
        const job = new nodeSchedule.Job(async (...args: unknown[]) => {
          try {
            await fn({ strapi: strapi() }, ...args);
          } catch (err) {
            logger.error({ err }, `cron task "${name ?? key}" failed`);
          }
        });
        specs.push({ job, options, name });
        if (running) job.schedule(options);
      }
      return service;
    },
    remove(name) {
      if (!name) throw new Error('You must provide a name to remove a cron job.');
      for (const spec of specs.filter((s) => s.name === name)) spec.job.cancel();
      specs = specs.filter((s) => s.name !== name);
      return service;
    },
    start() {
      for (const { job, options } of specs) job.schedule(options);
      running = true;
      return service;
    },
    stop() {
      for (const { job } of specs) job.cancel();
      running = false;
      return service;
    },
    destroy() {
      service.stop();
      specs = [];
      return service;
    },
    get jobs() {
      return specs;
    },
  };
  return service;
}

/** `config/server` `cron`: the tasks to schedule, when `enabled` (off by default, as in Strapi). */
export function configuredCronTasks(config: ServiceConfig): Record<string, unknown> {
  const server = isRecord(config.tree.server) ? config.tree.server : {};
  const cron = isRecord(server.cron) ? server.cron : {};
  if (cron.enabled !== true) return {};
  if (cron.tasks === undefined) return {};
  if (!isRecord(cron.tasks))
    throw new ConfigError(
      config.fileOf('server', 'cron.tasks'),
      'cron.tasks',
      'must be an object of tasks: { "<rule>": ({ strapi }) => … } or { name: { task, options } }',
    );
  for (const key of Object.keys(cron.tasks)) {
    try {
      taskOf(cron.tasks, key);
    } catch (err) {
      throw new ConfigError(
        config.fileOf('server', 'cron.tasks'),
        `cron.tasks.${key}`,
        `${err instanceof Error ? err.message : String(err)} Give a function ({ strapi }) => … or { task, options: { rule } }`,
      );
    }
  }
  return cron.tasks;
}
