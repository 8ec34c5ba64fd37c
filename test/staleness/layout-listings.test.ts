// Layout code blocks that are not box-drawn trees: indented listings of multi-segment names and
// plain lists of full paths are path references; fences holding code, commands or JSON are not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { extractReferences } from '../../src/memory/references.js';
import { isListing } from '../../src/memory/refs/tree.js';
import { cleanupRepos, makeRepo, type Repo } from './helpers.js';
import { entryOf, fileOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

const FENCE = '```';
const paths = (text: string) => {
  const file = fileOf(text, 'CLAUDE.md');
  return extractReferences(entryOf(file), file)
    .filter((r) => r.kind === 'path')
    .map((r) => `${r.raw}|${r.value}|${r.base ?? ''}|${r.via ?? ''}`);
};

describe('listing detection', () => {
  it('reads indented multi-segment listings against their dir/ parent', () => {
    const text = `Layout:\n\n${FENCE}\npackages/\n  api/src/server.ts        # express entry point\n  api/src/routes/          # one file per resource\n  shared/src/dates.ts\n${FENCE}\n`;
    expect(paths(text)).toEqual([
      'packages/|packages||',
      'api/src/server.ts|packages/api/src/server.ts|packages/|tree',
      'api/src/routes/|packages/api/src/routes|packages/|tree',
      'shared/src/dates.ts|packages/shared/src/dates.ts|packages/|tree',
    ]);
  });

  it('reads a plain list of full paths (text fence, elisions allowed) as code paths', () => {
    const text = `Files:\n\n${FENCE}text\npackages/api/src/server.ts\npackages/api/src/routes/\n...\nREADME.md   # top\n${FENCE}\n`;
    expect(paths(text)).toEqual(['packages/api/src/server.ts|packages/api/src/server.ts||', 'packages/api/src/routes/|packages/api/src/routes||', 'README.md|README.md||']);
  });

  it('does not read code, commands, JSON, prose or package lists as listings', () => {
    for (const code of [
      'npm run build\nnpm test', // shell
      'import x from "./a.js";\nx();', // code
      '{\n  "main": "dist/index.js"\n}', // JSON
      'src/index.ts is the entry\nsrc/app.ts', // prose on a line
      '@acme/ui\n@acme/web', // scoped packages
      '1.2.3\n2.0.0', // versions
      'README.md\nCHANGELOG.md', // no folder anywhere: not clearly a layout
      'src/a.ts -> src/b.ts', // a mapping, not a listing
      '/etc/nginx/nginx.conf\n/var/log/app.log', // system paths
    ]) expect(isListing(code), code).toBe(false);
    expect(isListing('src/index.ts\nsrc/app.ts')).toBe(true);
    expect(paths(`${FENCE}ts\nsrc/index.ts\nsrc/app.ts\n${FENCE}\n`)).toEqual([]); // another language: code
  });
});

describe('stale listings (real history)', () => {
  let r: Repo;
  let sha: string;
  beforeAll(async () => {
    r = await makeRepo();
    for (const f of ['packages/api/src/server.ts', 'packages/api/src/routes/users.ts', 'packages/shared/src/dates.ts']) await r.write(f, `// ${f}\n`);
    await r.commit('init', '2026-01-05');
    await r.move('packages/api/src/routes', 'packages/api/src/handlers');
    await r.move('packages/shared/src/dates.ts', 'packages/shared/src/time.ts');
    sha = (await r.commit('mv', '2026-02-05')).slice(0, 7);
  });

  it('flags renamed entries of both listing forms, with a correction for full paths', async () => {
    await r.write(
      'CLAUDE.md',
      `# X\n\n## A\n\n${FENCE}\npackages/\n  api/src/server.ts        # express entry point\n  api/src/routes/          # one file per resource\n  shared/src/dates.ts      # date helpers\n${FENCE}\n\n## C\n\n${FENCE}\npackages/api/src/server.ts\npackages/api/src/routes/\npackages/shared/src/dates.ts\n${FENCE}\n`,
    );
    const { report } = await audit({ root: r.dir, memory: ['CLAUDE.md'], now: NOW });
    const f = report.findings.filter((x) => x.file === 'CLAUDE.md' && x.kind.startsWith('path'));
    expect(f.map((x) => `${x.kind}|${x.line}|${x.ref}|${x.evidence?.now}|${x.suggestion?.replace ?? ''}`)).toEqual([
      'path-renamed|8|api/src/routes/|packages/api/src/handlers|',
      'path-renamed|9|shared/src/dates.ts|packages/shared/src/time.ts|',
      'path-renamed|16|packages/api/src/routes/|packages/api/src/handlers|packages/api/src/handlers/',
      'path-renamed|17|packages/shared/src/dates.ts|packages/shared/src/time.ts|packages/shared/src/time.ts',
    ]);
    expect(f[0].message).toBe(`Directory \`api/src/routes/\` was moved to \`packages/api/src/handlers/\` in ${sha} (2026-02-05, "mv"); update the reference.`);
  });
});
