// Child process running the embedded engine alone, as `content-service engine` does, with the same
// arguments (`--port`, `--host`, `--data`), without the CLI's start-up around it: for tests that
// kill the engine under a service connected to it. Prints the engine's URI once it listens.
import { main } from '../../src/engine/cli.js';

await main(process.argv.slice(2));
