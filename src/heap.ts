// Heap growth for a batch run. V8 grows the heap by a large factor after each full GC when
// the machine has plenty of memory, so a run over a 50,000-commit history peaked at 470-520 MB
// RSS while its live data never passed ~230 MB. A smaller growing factor collects sooner:
// measured on the benchmark's large repository, peak RSS 436-441 MB for ~0.3 s more GC time.
// The flag is read at every full GC, so setting it at start-up takes effect for the whole run.
// MEMORY_AUDIT_HEAP_GROWING_PERCENT overrides it (0 leaves V8's default).
import { setFlagsFromString } from 'node:v8';

export function tuneHeap(env: NodeJS.ProcessEnv = process.env): void {
  const raw = env.MEMORY_AUDIT_HEAP_GROWING_PERCENT;
  const pct = raw === undefined || raw === '' ? 40 : Number(raw);
  if (!Number.isInteger(pct) || pct <= 0) return;
  try {
    setFlagsFromString(`--heap-growing-percent=${Math.min(pct, 400)}`);
  } catch {
    // an unknown flag on another V8: keep the defaults
  }
}
