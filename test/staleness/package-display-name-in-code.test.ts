// A package named by its display spelling in code and in prose on one line (`Req`, Elixir's module
// for the `req` package): one finding, one successor spelling (`Finch`), one update. Real git repository.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import type { Report } from '../../src/types.js';
import { cleanupRepos, findingRows, makeRepo, type Repo } from './helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const mixExs = (dep: string) => `defmodule App.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n      ${dep},\n      {:jason, "~> 1.4"}\n    ]\n  end\nend\n`;

afterAll(cleanupRepos);

describe('a display name written in code and in prose', () => {
  let r: Repo;
  let report: Report;

  beforeAll(async () => {
    r = await makeRepo();
    await r.write('mix.exs', mixExs('{:req, "~> 0.5"}'));
    await r.write('AGENTS.md', '# App\n\n- Use `Req` for HTTP. Req is included by default.\n');
    await r.commit('base', '2025-07-01');
    await r.write('mix.exs', mixExs('{:finch, "~> 0.19"}'));
    await r.commit('Use Finch directly instead of Req', '2026-01-10');
    ({ report } = await audit({ root: r.dir, memory: ['AGENTS.md'], now: NOW }));
  });

  it('is one finding whose successor keeps the display spelling, and one update', async () => {
    expect(findingRows(report, (f) => f.kind === 'package-renamed')).toEqual(['package-renamed|3|Req|Finch']);
    await runPrune({ root: r.dir, now: NOW, write: true });
    expect(await readFile(path.join(r.dir, 'AGENTS.md'), 'utf8')).toBe('# App\n\n- Use `Finch` for HTTP. Finch is included by default. [corrected 2026-06-01]\n');
    expect((await runPrune({ root: r.dir, now: NOW, write: false })).changes).toEqual([]);
  });
});
