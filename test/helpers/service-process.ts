// The whole service in a child process of its own (test/helpers/service-child.ts) on a persisted
// embedded engine: for tests that limit or kill the process (a `ulimit`, `kill -9`).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./service-child.ts', import.meta.url));

export interface ServiceProcess {
  process: ChildProcess;
  url: string;
  /** what the child printed so far (its log lines) */
  output: () => string;
}

/** Starts the service in a child process (after `prefix` in the shell, e.g. a ulimit); resolves once it listens. */
export function startServiceProcess(appDir: string, dataDir: string, prefix = ''): Promise<ServiceProcess> {
  return new Promise((resolve, reject) => {
    const command = `${prefix} exec "${process.execPath}" --import tsx "${CHILD}" "${appDir}" "${dataDir}"`;
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['ignore', 'pipe', 'inherit'],
      // production requires its secrets
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        JWT_SECRET: 'service-process-test-jwt',
        API_TOKEN_SALT: 'service-process-test-salt',
      },
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start: ${out}`));
    }, 45_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /^url (\S+)$/m.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ process: child, url, output: () => out });
      }
    });
    child.on('exit', () => clearTimeout(timer));
  });
}
