import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { javascriptProject } from '../helpers/strapi-projects.js';
import { writeTempProject } from '../helpers/temp-app.js';

const BIN = fileURLToPath(new URL('../../bin/content-service.mjs', import.meta.url));

/** Runs `content-service start` on an app that cannot start; its exit code and what it printed. */
function start(appDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'start', '--app', appDir, '--memory', '--port', '0', '--host', '127.0.0.1'],
      { env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number | null) : 0, stdout, stderr }),
    );
  });
}

describe('CLI: content-service start on a project that cannot start', function () {
  this.timeout(60_000);

  it('prints one line naming the file, the cause and the fix, and exits 1', async () => {
    const missing = await start(
      await writeTempProject({
        ...javascriptProject(),
        'config/plugins.js': "const s3 = require('@strapi/provider-upload-aws-s3');\nmodule.exports = {};\n",
      }),
    );
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.equal(
      'content-service: config/plugins.js: requires the package "@strapi/provider-upload-aws-s3", which is not installed: run "npm install @strapi/provider-upload-aws-s3" in the app directory, or remove what uses it\n',
    );
  });
});
