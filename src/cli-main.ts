// The `memory-audit` binary: only wires the process to src/cli.ts.
import { main } from './cli.js';
import { tuneHeap } from './heap.js';

tuneHeap();

// The reader went away (`memory-audit … | head`): stop quietly with status 0, as git and grep do,
// instead of an unhandled 'error' event and a stack trace. Output is written only once the work
// is done (files, --output), so nothing is cut short. A closed stderr is ignored the same way.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
process.stderr.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
