import { describe, expect, it } from 'vitest';
import { extractReferences } from '../../src/memory/references.js';
import { brief, entryOf, fileOf, refsOf } from './refs-helpers.js';

const STRONG = ['path', 'import', 'wikilink', 'link', 'url', 'command'];

describe('extractReferences: paths', () => {
  it('takes paths from inline code, links, bare dir/file tokens and file names, with exact lines and offsets', () => {
    const text = [
      '# Notes',
      '- Server in `src/server/index.ts`, client under src/client/.',
      '- See [the guide](docs/guide.md#setup) and EXTENDING.md for details.',
      '- Fixes in apps/mcp go through review.',
    ].join('\n');
    const refs = refsOf(text);
    expect(brief(refs, ['path', 'link'])).toEqual([
      'path:src/server/index.ts@2',
      'path:src/client/@2',
      'path:docs/guide.md@3',
      'link:docs/guide.md#setup@3',
      'path:EXTENDING.md@3',
      'path:apps/mcp@4',
    ]);
    const p = refs.find((r) => r.raw === 'src/server/index.ts')!;
    expect(text.slice(p.start, p.end)).toBe('src/server/index.ts');
    expect(p.in).toBe('inlineCode');
    expect(refs.find((r) => r.raw === 'src/client/')!.value).toBe('src/client');
  });

  it('does not take placeholders, home and absolute paths, URLs, domains, MIME types, versions, fractions or word pairs as paths', () => {
    const text = [
      'Use `path/to/file.ts`, `<name>/index.ts`, `foo/bar`, `your-project/src/x.ts`, `~/.claude/settings.json`, `/usr/local/bin/node`.',
      'Also https://example.com/docs/a.md, example.com, claude.ai/code, `application/json`, `1.2.3`, `.ts`, and/or, I/O, N/A, 1/2, 2024/01/02.',
      'Slack/Telegram/GitHub and fatal/error/warn are words; `src/{platform}-auth.ts` is a template; /clone is a command.',
    ].join('\n');
    expect(brief(refsOf(text), ['path', 'import'])).toEqual([]);
    expect(brief(refsOf(text), ['url'])).toEqual(['url:https://example.com/docs/a.md@2']);
  });

  it('keeps ./, ../ and leading / as written and marks globs', () => {
    const refs = refsOf('Run `./scripts/x.sh`, read `../AGENTS.md`, open `/docs/guide/index.md`, tests in `cmd/bd/testdata/*.txt`.', { path: 'docs/CLAUDE.md' });
    expect(refs.filter((r) => r.kind === 'path').map((r) => [r.raw, r.value, !!r.glob])).toEqual([
      ['./scripts/x.sh', 'scripts/x.sh', false],
      ['../AGENTS.md', '../AGENTS.md', false],
      ['/docs/guide/index.md', 'docs/guide/index.md', false],
      ['cmd/bd/testdata/*.txt', 'cmd/bd/testdata/*.txt', true],
    ]);
  });

  it('reads globs and paths of rule frontmatter, attached to the first entry after it', () => {
    const text = '---\ndescription: API rules\nglobs: src/api/**/*.ts, src/legacy/*.ts\n---\n\n# API\n\nHandlers return typed errors.\n';
    const file = fileOf(text, '.cursor/rules/api.mdc', 'cursor-rule');
    file.frontmatter = { description: 'API rules', globs: 'src/api/**/*.ts, src/legacy/*.ts' };
    file.frontmatterRange = [0, text.indexOf('---\n\n') + 4];
    const refs = extractReferences(entryOf(file, { start: text.indexOf('Handlers') }), file).filter((r) => r.kind === 'path');
    expect(refs.map((r) => [r.raw, r.line, r.in, !!r.glob])).toEqual([
      ['src/api/**/*.ts', 3, 'frontmatter', true],
      ['src/legacy/*.ts', 3, 'frontmatter', true],
    ]);
  });

  it('drops line numbers and wrapping emphasis, keeps leading underscores', () => {
    const refs = refsOf('Bug at src/app.ts:42:7 and in *lib/x.ts*; helpers live in _types.ts.');
    expect(refs.filter((r) => r.kind === 'path').map((r) => [r.raw, r.value])).toEqual([
      ['src/app.ts', 'src/app.ts'],
      ['lib/x.ts', 'lib/x.ts'],
      ['_types.ts', '_types.ts'],
    ]);
  });

  it('reads @imports in prose but not in code, and [[wikilinks]]', () => {
    const refs = refsOf('- Main: @apps/ccusage/CLAUDE.md\n- See [[auth-flow]] and `@apps/x/CLAUDE.md`.\n- Scoped package @praha/byethrow stays a package.');
    expect(brief(refs, ['import', 'wikilink', 'path', 'package']).filter((s) => !s.startsWith('package:') || s.includes(':@'))).toEqual([
      'import:@apps/ccusage/CLAUDE.md@1',
      'wikilink:[[auth-flow]]@2',
      'path:@apps/x/CLAUDE.md@2',
      'package:@praha/byethrow@3',
    ]);
  });

  it('resolves ASCII tree entries to full paths with their base', () => {
    const text = ['```', 'src/', '├── adapters/       # platform adapters', '│   ├── slack.ts', '│   └── github.ts', '└── index.ts        # entry', '```'].join('\n');
    const refs = refsOf(text).filter((r) => r.kind === 'path');
    expect(refs.map((r) => [r.raw, r.value, r.base ?? '', r.line])).toEqual([
      ['src/', 'src', '', 2],
      ['adapters/', 'src/adapters', 'src/', 3],
      ['slack.ts', 'src/adapters/slack.ts', 'src/adapters/', 4],
      ['github.ts', 'src/adapters/github.ts', 'src/adapters/', 5],
      ['index.ts', 'src/index.ts', 'src/', 6],
    ]);
    expect(refs.every((r) => r.via === 'tree')).toBe(true);
  });

  it('reads trees drawn with one-stroke branches (`├─`, langfuse AGENTS.md)', () => {
    const text = ['```text', 'langfuse/', '├─ web/                     # Next.js app', '├─ worker/', '│  └─ src/index.ts', '└─ scripts/                 # Repo scripts', '```'].join('\n');
    expect(refsOf(text).filter((r) => r.kind === 'path').map((r) => r.value)).toEqual(['langfuse', 'langfuse/web', 'langfuse/worker', 'langfuse/worker/src/index.ts', 'langfuse/scripts']);
  });

  it('reads indented listings without box-drawing characters as trees', () => {
    const text = ['```', 'src/', '  server/', '    index.ts   # entry', '  client/', '    app.ts', 'README.md', '```'].join('\n');
    expect(refsOf(text).filter((r) => r.kind === 'path').map((r) => r.value)).toEqual(['src', 'src/server', 'src/server/index.ts', 'src/client', 'src/client/app.ts', 'README.md']);
    expect(refsOf('```\nnpm install\nnpm test\n```').filter((r) => r.kind === 'path')).toEqual([]);
  });

  it('gives bare file names the folder of their heading, list intro or first line', () => {
    const text = 'Located in `packages/shared/src/preset/`:\n\n- **export.ts**: exports presets';
    const start = text.indexOf('- **export.ts**');
    const refs = refsOf(text, { start }).filter((r) => r.kind === 'path');
    expect(refs.map((r) => [r.raw, r.base, r.via])).toEqual([['export.ts', 'packages/shared/src/preset/', 'list']]);
    const h = refsOf('- `ajv.ts` compiles schemas', { headings: ['Validation (`src/validation/`)'] }).filter((r) => r.kind === 'path');
    expect(h.map((r) => [r.raw, r.base, r.via])).toEqual([['ajv.ts', 'src/validation/', 'heading']]);
    const inner = refsOf('1. **RPC** (`internal/rpc/`)\n   - Protocol in `protocol.go`').filter((r) => r.kind === 'path');
    expect(inner.map((r) => [r.raw, r.base ?? null])).toEqual([['internal/rpc/', null], ['protocol.go', 'internal/rpc/']]);
  });

  it('takes a path from the heading right above the first entry of a section', () => {
    const text = '### 3. Agents (packages/server/src/agents/)\n\nAgents are plugins.';
    const refs = refsOf(text, { start: text.indexOf('Agents are') });
    expect(brief(refs, ['path'])).toEqual(['path:packages/server/src/agents/@1']);
  });
});

describe('extractReferences: commands', () => {
  it('parses scripts per tool, with workspaces, and skips built-in commands', () => {
    const text = [
      '```bash',
      'npm run lint:fix',
      'npm test',
      'npm install left-pad',
      'pnpm build:cli      # Build CLI',
      'pnpm install',
      'pnpm --filter @app/web dev',
      'yarn workspace web start',
      'bun run dev',
      'bun test src/a.test.ts',
      'make test lint',
      'just release',
      'cd packages/api && npm run seed',
      '```',
    ].join('\n');
    const cmds = refsOf(text).filter((r) => r.kind === 'command');
    expect(cmds.map((r) => [r.raw, r.tool, r.script, r.workspace ?? '', r.base ?? ''])).toEqual([
      ['npm run lint:fix', 'npm', 'lint:fix', '', ''],
      ['npm test', 'npm', 'test', '', ''],
      ['pnpm build:cli', 'pnpm', 'build:cli', '', ''],
      ['pnpm --filter @app/web dev', 'pnpm', 'dev', '@app/web', ''],
      ['yarn workspace web start', 'yarn', 'start', 'web', ''],
      ['bun run dev', 'bun', 'dev', '', ''],
      ['make test', 'make', 'test', '', ''],
      ['lint', 'make', 'lint', '', ''],
      ['just release', 'just', 'release', '', ''],
      ['npm run seed', 'npm', 'seed', '', 'packages/api/'],
    ]);
    const refs = refsOf(text);
    expect(brief(refs, ['package']).filter((s) => s.includes('left-pad'))).toEqual(['package:left-pad@4']);
    expect(brief(refs, ['path'])).toEqual(['path:src/a.test.ts@10', 'path:packages/api@13']);
  });

  it('reads workspace options written after the script and marks recursive runs', () => {
    const cmds = refsOf('`npm run build -w web`, `npm run lint --workspace=@acme/api`, `pnpm -r build`, `pnpm test --filter @acme/ui`').filter((r) => r.kind === 'command');
    // the reference reaches the selector written after the script, so a correction can rewrite it
    expect(cmds.map((r) => [r.raw, r.script, r.workspace])).toEqual([
      ['npm run build -w web', 'build', 'web'],
      ['npm run lint --workspace=@acme/api', 'lint', '@acme/api'],
      ['pnpm -r build', 'build', '*'],
      ['pnpm test --filter @acme/ui', 'test', '@acme/ui'],
    ]);
  });

  it('reads commands written in prose only when they cannot be English', () => {
    const refs = refsOf('Run pnpm typecheck and make check-py, then npm run build:docs. Use pnpm with workspaces; make sure to just test it.');
    expect(brief(refs, ['command'])).toEqual(['command:pnpm typecheck@1', 'command:make check-py@1', 'command:npm run build:docs@1']);
  });

  it('reads commands from inline code and unlabelled fences that look like commands, not from other code', () => {
    const text = ['Run `pnpm typecheck` first.', '```', 'make sync', '```', '```ts', "import x from 'npm run fake'", '```', '```', 'cli → server → @musistudio/llms', '```'].join('\n');
    const refs = refsOf(text);
    expect(brief(refs, ['command'])).toEqual(['command:pnpm typecheck@1', 'command:make sync@3']);
    expect(brief(refs, ['package']).filter((s) => s.includes(':@'))).toEqual(['package:@musistudio/llms@9']);
  });

  it('takes packages from pip, npx and registry specs, marking fetched ones', () => {
    const refs = refsOf('`pip install "requests>=2" black[jupyter]` and `npx tsdown` and `pnpm dlx @ccusage/mcp@latest -- --help`');
    expect(refs.filter((r) => r.kind === 'package').map((r) => [r.raw, r.value, !!r.fetched])).toEqual([
      ['requests', 'requests', false],
      ['black', 'black', false],
      ['tsdown', 'tsdown', false],
      ['@ccusage/mcp', '@ccusage/mcp', true],
    ]);
  });
});

describe('extractReferences: versions, issues, counts', () => {
  it('reads runtime, dependency and project versions', () => {
    const refs = refsOf('- Python 3.9+.\n- Node 18+ and TypeScript 5.4; tests on vitest 1.x.\n- Supports Python 3.9-3.13.\n- We are at v0.2.0.\n- Step 2 and Claude 4 are not versions.');
    expect(refs.filter((r) => r.kind === 'version').map((r) => [r.raw, r.subject, r.version, r.bound, r.line])).toEqual([
      ['Python 3.9+', 'python', '3.9+', 'atLeast', 1],
      ['Node 18+', 'node', '18+', 'atLeast', 2],
      ['TypeScript 5.4', 'typescript', '5.4', 'exact', 2],
      ['vitest 1.x', 'vitest', '1.x', 'exact', 2],
      ['Python 3.9-3.13', 'python', '3.9-3.13', 'exact', 3],
      ['v0.2.0', '(project)', '0.2.0', 'exact', 4],
    ]);
    expect(refsOf('Released v1.2.0 last year; since v1.0.0 the API is stable; v2.1.0 introduced plugins.').filter((r) => r.kind === 'version')).toEqual([]);
  });

  it('reads issues and PRs with describedOpen from the words around them', () => {
    const refs = refsOf('- Currently working on issue #42.\n- PR #45 was merged.\n- Blocked by https://github.com/acme/app/pull/7 (WIP).\n- Colour #fff and a#1 are not issues.');
    expect(refs.filter((r) => r.kind === 'issue').map((r) => [r.raw, r.number, r.issueKind, r.describedOpen, r.repo ?? ''])).toEqual([
      ['issue #42', 42, 'issue', true, ''],
      ['PR #45', 45, 'pr', false, ''],
      ['https://github.com/acme/app/pull/7', 7, 'pr', true, 'acme/app'],
    ]);
  });

  it('reads counts with their folder and bound', () => {
    const refs = refsOf('This repo includes 16 default commands in `.archon/commands/defaults/`, 310 SKILL.md files and 100+ rules; retries 3 times.');
    expect(refs.filter((r) => r.kind === 'count').map((r) => [r.raw, r.count, r.noun, r.bound, r.base ?? ''])).toEqual([
      ['16 default commands', 16, 'default commands', 'exact', '.archon/commands/defaults/'],
      ['310 SKILL.md files', 310, 'skill.md files', 'exact', ''],
      ['100+ rules', 100, 'rules', 'atLeast', ''],
    ]);
  });

  it('is fast enough for large memory', () => {
    const line = '- Server in `src/server/index.ts`; run `pnpm build` then `make test`; see #12 (open); 12 packages; Node 20+.\n';
    const text = line.repeat(2000);
    const t0 = performance.now();
    const refs = refsOf(text);
    const ms = performance.now() - t0;
    expect(refs.filter((r) => STRONG.includes(r.kind)).length).toBe(2000 * 3);
    expect(ms).toBeLessThan(2000);
  });
});
