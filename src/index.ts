// The Action entry point (bundled to dist/index.js).
import { run } from './main.js';
import { tuneHeap } from './heap.js';

tuneHeap();

await run();
