/**
 * The CPU time (user + system, ms) this process spent while `work` ran, and its result: what a
 * test means when it asserts that something is cheap. Unlike the wall time, a busy machine (other
 * processes on the same cores) does not stretch it. The embedded engine of the tests runs in this
 * process, so its work is counted too.
 */
export async function withCpuTime<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const started = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(started);
  return { result, cpuMs: (user + system) / 1000 };
}
