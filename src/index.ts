// The Action entry point (bundled to dist/index.js).
import { run } from './main.js';

await run();
