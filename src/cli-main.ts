// The `memory-audit` binary: only wires the process to src/cli.ts.
import { main } from './cli.js';
import { tuneHeap } from './heap.js';

tuneHeap();

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
