// Package-manager and task commands run through a wrapper: a path to a wrapper script
// (`../<tools-dir>/container/dev npm run watch`), `docker compose exec app`, `docker exec -it web`,
// `kubectl exec … --`, `ssh host`, `sudo`, `env`, `time`, `nice`, `dotenv --`, `cross-env`. The
// command is read as if it stood alone; the wrapper's own arguments are not paths. Real git
// histories, audited and pruned end to end.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit.js';
import { runPrune } from '../../src/commands/prune.js';
import { looksLikeCommand, parseCommandLine } from '../../src/memory/refs/commands.js';
import { cleanupRepos, makeRepo, pkg, type Repo } from './helpers.js';
import { brief, refsOf } from './refs-helpers.js';

const NOW = new Date('2026-06-01T00:00:00Z');
afterAll(cleanupRepos);

/** `kind:value[@cwd][#script] start-end` of each piece. */
const pieces = (line: string) =>
  parseCommandLine(line).map((p) => `${p.kind}:${p.value}${p.cwd ? `@${p.cwd}` : ''}${p.script ? `#${p.script}` : ''} ${p.start}-${p.end}`);

describe('wrapper prefixes: extraction', () => {
  it('a path to a wrapper script, then the command (nextcloud wording)', () => {
    expect(pieces('../<tools-dir>/container/dev npm run watch')).toEqual(['script:npm run watch#watch 29-42']);
    expect(pieces('./bin/dev npm run watch')).toEqual(['path:./bin/dev 0-9', 'script:npm run watch#watch 10-23']);
    expect(pieces('bin/dev make build lint')).toEqual(['path:bin/dev 0-7', 'script:make build#build 8-18', 'script:make lint#lint 19-23']);
    // A path wrapper must be right before the command: otherwise read as before.
    expect(pieces('/usr/bin/time -v just test')).toEqual(['path:/usr/bin/time 0-13', 'path:just 17-21', 'path:test 22-26']);
  });

  it('containers: docker compose exec / run, docker-compose, docker exec, kubectl exec --', () => {
    expect(pieces('docker compose exec app npm run watch')).toEqual(['script:npm run watch#watch 24-37']);
    expect(pieces('docker exec -it web npm run watch')).toEqual(['script:npm run watch#watch 20-33']);
    expect(pieces('docker-compose exec -T app yarn watch')).toEqual(['script:yarn watch#watch 27-37', 'package:watch 32-37']);
    expect(pieces('docker compose run --rm -e NODE_ENV=test web pnpm run lint')).toEqual(['script:pnpm run lint#lint 45-58']);
    expect(pieces('docker container exec -u www-data web make cron')).toEqual(['script:make cron#cron 38-47']);
    expect(pieces('kubectl -n prod exec -it api-0 -c app -- npm run migrate')).toEqual(['script:npm run migrate#migrate 41-56']);
    // A compose file is a path of the host (like `make -f`); the service name is not a path.
    expect(pieces('docker compose -f docker/compose.yml exec app npm run watch')).toEqual(['path:docker/compose.yml 18-36', 'script:npm run watch#watch 46-59']);
  });

  it('sudo, env, time, nice, ssh, dotenv, cross-env, and chains of them', () => {
    expect(pieces('sudo -u www-data npm run watch')).toEqual(['script:npm run watch#watch 17-30']);
    expect(pieces('env -u CI NODE_ENV=production npm run build')).toEqual(['script:npm run build#build 30-43']);
    expect(pieces('time make build')).toEqual(['script:make build#build 5-15']);
    expect(pieces('nice -n 10 make build')).toEqual(['script:make build#build 11-21']);
    expect(pieces('ssh -p 2222 deploy@staging just deploy')).toEqual(['script:just deploy#deploy 27-38']);
    expect(pieces('npx dotenv -e .env.test -- npm run test:e2e')).toEqual(['package:dotenv#exec 4-10', 'script:npm run test:e2e#test:e2e 27-43']);
    expect(pieces('dotenv -c development -- pnpm run dev')).toEqual(['tool:dotenv 0-6', 'script:pnpm run dev#dev 25-37']);
    expect(pieces('cross-env NODE_ENV=test CONFIG=./cfg/x.json npm run watch')).toEqual([
      'tool:cross-env 0-9',
      'path:./cfg/x.json 31-43',
      'script:npm run watch#watch 44-57',
    ]);
    expect(pieces('sudo docker compose exec app env CI=1 npm test')).toEqual(['script:npm test#test 38-46']);
  });

  it('keeps the folder rules of the standalone command', () => {
    expect(pieces('cd web && docker compose exec app npm run watch')).toEqual(['path:web 3-6', 'script:npm run watch@web#watch 34-47']);
    expect(pieces('docker compose exec app npm --prefix web run watch')).toEqual(['path:web 37-40', 'script:npm run watch@web#watch 24-50']);
    // The wrapper script's path is relative to the shell's folder, not to `--prefix`.
    const ps = parseCommandLine('cd app && ./bin/dev npm --prefix web run watch');
    expect(ps.map((p) => `${p.kind}:${p.value}:${p.cwd ?? ''}`)).toEqual(['path:app:', 'path:./bin/dev:app', 'path:web:app', 'script:npm run watch:app/web']);
  });

  it('leaves alone what is not such a chain: another folder, another program, an image, a quoted command', () => {
    // `-w dir`, `sudo -i` (home), `env -C dir`: the command runs in a folder the text does not mirror.
    expect(pieces('docker exec -w /srv web npm run watch').filter((p) => p.startsWith('script'))).toEqual([]);
    expect(pieces('docker compose exec --workdir=/srv app npm run watch').filter((p) => p.startsWith('script'))).toEqual([]);
    expect(pieces('sudo -i npm run watch').filter((p) => p.startsWith('script'))).toEqual([]);
    expect(pieces('env -C web npm run watch').filter((p) => p.startsWith('script'))).toEqual([]);
    // `docker run <image>`: the image's working folder is its own.
    expect(pieces('docker run node:20 npm run watch').filter((p) => p.startsWith('script'))).toEqual([]);
    expect(pieces("ssh deploy@host 'npm run watch'").filter((p) => p.startsWith('script'))).toEqual([]);
    expect(pieces('docker compose exec app php occ upgrade').filter((p) => p.startsWith('script'))).toEqual([]);
    // Unchanged: a script with its own arguments, `sudo` before another program.
    expect(pieces('./scripts/release.sh patch')).toEqual(['path:./scripts/release.sh 0-20', 'path:patch 21-26']);
    expect(pieces('sudo apt-get install jq')).toEqual(['tool:apt-get 5-12', 'path:install 13-20', 'path:jq 21-23']);
  });

  it('inline code starting with a wrapper reads as a command', () => {
    expect(looksLikeCommand('../<tools-dir>/container/dev npm run watch')).toBe(true);
    expect(looksLikeCommand('env NODE_ENV=production npm run build')).toBe(true);
    expect(looksLikeCommand('ssh staging make deploy')).toBe(true);
    // Composer scripts are looked through wrappers too (the wrapper runs them in the mirrored folder).
    expect(looksLikeCommand('../<tools-dir>/container/dev composer test')).toBe(true);
    expect(looksLikeCommand('time to first byte')).toBe(false);
    const text = [
      '- **Watch Mode:** `../<tools-dir>/container/dev npm run watch` - rebuilds on file changes',
      '- **Watch (container):** `docker compose exec app npm run watch` - same, from the host',
      '- **PHP tests:** `../<tools-dir>/container/dev composer test`',
    ].join('\n');
    expect(brief(refsOf(text, { path: '.github/copilot-instructions.md', format: 'copilot' }), ['command', 'path'])).toEqual([
      'command:npm run watch@1',
      'command:npm run watch@2',
      'command:composer test@3',
    ]);
  });
});

describe('wrapper prefixes: end to end on a renamed script', () => {
  let r: Repo;
  let sha = '';
  const memory = [
    '# Project',
    '',
    '- Watch mode: `../<tools-dir>/container/dev npm run watch` rebuilds on file changes.',
    '- From the host: `docker compose exec app npm run watch` (same as above).',
    '- Or attach to the container: `docker exec -it web npm run watch`.',
    '- Production bundle: `docker compose exec app npm run build`.',
    '- Cron jobs: `docker compose exec -u www-data app make cron`.',
    '',
    'In the dev container:',
    '',
    '```bash',
    './bin/dev npm run watch',
    '```',
    '',
  ].join('\n');

  beforeAll(async () => {
    r = await makeRepo('ma-wrap-');
    await r.write('package.json', pkg({ name: 'web', private: true, scripts: { dev: 'vite', build: 'vite build', watch: 'vite build --watch' } }));
    await r.write('Makefile', 'cron:\n\tphp cron.php\n');
    await r.write('bin/dev', '#!/bin/sh\nexec docker compose exec app "$@"\n');
    await r.write('CLAUDE.md', memory);
    await r.commit('Add the project', '2025-05-02');
    await r.write('package.json', pkg({ name: 'web', private: true, scripts: { dev: 'vite', build: 'vite build', 'dev:watch': 'vite build --watch' } }));
    sha = (await r.commit('Rename watch script to dev:watch', '2025-09-12')).slice(0, 7);
  });

  it('reports each wrapped `npm run watch` with its successor, nothing else', async () => {
    const res = await audit({ root: r.dir, now: NOW });
    const msg = `\`npm run watch\` no longer works: the script was renamed to \`dev:watch\` in ${sha} (2025-09-12, "Rename watch script to dev:watch"); use \`npm run dev:watch\` instead.`;
    expect(res.findings.map((f) => `${f.kind}|${f.line}|${f.ref}|${f.suggestion?.replace ?? ''}|${f.message}`)).toEqual([
      `script-missing|3|npm run watch|npm run dev:watch|${msg}`,
      `script-missing|4|npm run watch|npm run dev:watch|${msg}`,
      `script-missing|5|npm run watch|npm run dev:watch|${msg}`,
      `script-missing|12|npm run watch|npm run dev:watch|${msg}`,
    ]);
  });

  it('prune --write corrects the command after the wrapper; a second prune changes nothing', async () => {
    const first = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(first.plan.filter((p) => p.action !== 'keep').map((p) => `${p.action}|${p.rule}`)).toEqual(['update|4', 'update|4', 'update|4', 'update|4']);
    const after = memory
      .replace(
        '`../<tools-dir>/container/dev npm run watch` rebuilds on file changes.',
        '`../<tools-dir>/container/dev npm run dev:watch` rebuilds on file changes. [corrected 2026-06-01]',
      )
      .replace('`docker compose exec app npm run watch` (same as above).', '`docker compose exec app npm run dev:watch` (same as above). [corrected 2026-06-01]')
      .replace('`docker exec -it web npm run watch`.', '`docker exec -it web npm run dev:watch`. [corrected 2026-06-01]')
      .replace('./bin/dev npm run watch', './bin/dev npm run dev:watch');
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(after);
    const second = await runPrune({ root: r.dir, now: NOW, write: true });
    expect(second.changes).toEqual([]);
    expect(await readFile(path.join(r.dir, 'CLAUDE.md'), 'utf8')).toBe(after);
  });
});
