import { describe, expect, it } from 'vitest';
import { classify, typeFromFrontmatter } from '../../src/memory/classify.js';

const c = (text: string, headings: string[] = []) => {
  const r = classify(text, headings);
  return `${r.type} ${r.rule}`;
};

describe('classify: strong text signals win over headings', () => {
  it('session state is ephemeral, whatever the section', () => {
    expect(c('- Currently working on issue #42, halfway through the refactor', ['Decisions'])).toBe('ephemeral text:ephemeral-session');
    expect(c('In this session we renamed the auth module')).toBe('ephemeral text:ephemeral-session');
    expect(c('Left off at the migration step')).toBe('ephemeral text:ephemeral-session');
    expect(c('Next steps: wire the CLI')).toBe('ephemeral text:ephemeral-session');
    expect(c('TODO: add tests for the parser')).toBe('ephemeral text:ephemeral-session');
    expect(c('We just fixed the flaky login test')).toBe('ephemeral text:ephemeral-today');
    expect(c('User seemed frustrated with the slow build')).toBe('ephemeral text:ephemeral-today');
  });
  it('a SUPERSEDED record is superseded', () => {
    expect(c('SUPERSEDED 2026-03-01\nPattern: retry with sleep')).toBe('superseded text:superseded-record');
  });
});

describe('classify: section headings', () => {
  it('specific headings decide, innermost first', () => {
    expect(c('- Postgres over Mongo', ['Project', 'Decisions'])).toBe('decision heading:decisions');
    expect(c('- Jest hangs on open handles; pass --forceExit', ['Gotchas'])).toBe('pattern heading:patterns');
    expect(c('- x', ['Debugging'])).toBe('pattern heading:patterns');
    expect(c('- Troubleshoot by clearing .cache', ['Troubleshooting'])).toBe('pattern heading:patterns');
    expect(c('- [Vitest docs](https://vitest.dev)', ['Links'])).toBe('reference heading:references');
    expect(c('- x', ['References'])).toBe('reference heading:references');
    expect(c('- Short answers please', ['Preferences'])).toBe('feedback heading:feedback');
    expect(c('- x', ['Feedback'])).toBe('feedback heading:feedback');
    expect(c('- Backend engineer, new to React', ['About the user'])).toBe('user heading:user');
    expect(c('- x', ['Gotchas', 'Decisions'])).toBe('decision heading:decisions');
  });
  it('"User authentication" is not a user-profile heading', () => {
    expect(c('- Sessions live in `src/auth/session.ts`', ['User authentication'])).toBe('project text:project');
  });
  it('generic project headings yield to text rules', () => {
    expect(c('- We decided to use Postgres over Mongo because of joins', ['Project'])).toBe('decision text:decision');
    expect(c('- Run the linter before pushing', ['Commands'])).toBe('project heading:project');
    expect(c('- Something plain', ['Architecture'])).toBe('project heading:project');
  });
});

describe('classify: precision on real CLAUDE.md / AGENTS.md shapes', () => {
  it('"Patterns" and "Workflow" headings name conventions, not debugging knowledge', () => {
    expect(c('- `with-db`: App + PostgreSQL 18', ['Docker Patterns'])).toBe('project heading:project');
    expect(c('1. Sync with `main` and create a feature branch', ['Development Workflow'])).toBe('project heading:project');
    expect(c('- Python 3.9+.', ['Prerequisites'])).toBe('project heading:project');
  });
  it('a URL inside a code block or a long paragraph does not make a reference', () => {
    expect(c('```bash\ncurl -X POST http://localhost:3000/test/message\n```', ['Testing'])).toBe('project text:code-block');
    expect(c('```bash\ncurl http://localhost:3000\n```')).toBe('project text:code-block');
    const long = 'The worker polls the queue every five seconds and retries failed jobs with exponential backoff; '.repeat(2) + 'https://example.com/queue';
    expect(c(long)).toBe('unknown none');
    expect(c('Dashboard: https://grafana.example.com/d/abc')).toBe('reference text:reference-url');
    expect(c('1. `/clone https://github.com/user/repo`')).toBe('project text:project');
  });
  it('the word "decision" alone is not a decision', () => {
    expect(c('Keep the Decision Log section up to date as you execute')).toBe('project text:project');
    expect(c('- **Decision**: Postgres for everything')).toBe('decision text:decision');
    expect(c('The decision was to keep REST')).toBe('decision text:decision');
  });
});

describe('classify: text rules', () => {
  it('decisions', () => {
    expect(c('We chose SQLite instead of Postgres because tests must run offline')).toBe('decision text:decision');
    expect(c('Decided against a monorepo')).toBe('decision text:decision');
  });
  it('an imperative "Prefer X over Y" is a convention, not user feedback', () => {
    expect(c('- **Prefer Result types** over try-catch for error handling')).toBe('project text:project');
    expect(c('I prefer tabs over spaces')).toBe('feedback text:feedback');
    expect(c("The user's preference is short answers")).toBe('feedback text:feedback');
  });
  it('feedback', () => {
    expect(c('The user prefers small commits')).toBe('feedback text:feedback');
    expect(c("Don't add comments unless asked")).toBe('feedback text:feedback');
  });
  it('user', () => {
    expect(c('The user is a data scientist')).toBe('user text:user');
    expect(c("I'm a senior backend engineer")).toBe('user text:user');
  });
  it('patterns', () => {
    expect(c('If you see EADDRINUSE, kill the old dev server')).toBe('pattern text:pattern');
    expect(c('The e2e suite is flaky on CI; rerun once')).toBe('pattern text:pattern');
    expect(c('When the build fails, delete node_modules/.vite')).toBe('pattern text:pattern');
  });
  it('references', () => {
    expect(c('- [Design doc](https://example.com/design) — the original proposal')).toBe('reference text:reference');
    expect(c('See the Stripe webhook guide')).toBe('reference text:reference');
  });
  it('project facts', () => {
    expect(c('- Use `pnpm test` to run tests')).toBe('project text:project');
    expect(c('Routes live in src/routes/index.ts')).toBe('project text:project');
    expect(c('Never commit generated files')).toBe('project text:project');
  });
  it('nothing recognisable is unknown (source default)', () => {
    expect(classify('Hello there', [])).toEqual({ type: 'unknown', source: 'default', rule: 'none', reason: 'none' });
    expect(classify('- x', ['Decisions']).source).toBe('heuristic');
  });
});

describe('classify: pathological input stays fast', () => {
  it('never backtracks quadratically (paths, dots, blanks, huge texts)', () => {
    const t0 = performance.now();
    for (const s of ['a/'.repeat(20000), 'a.'.repeat(20000), ' '.repeat(40000) + 'x', ' \n'.repeat(20000), 'a/'.repeat(2_000_000)]) {
      expect(classify(s, ['H']).type).toBe('unknown');
    }
    // Each of these took seconds before the fix; generous bound for loaded CI machines.
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('typeFromFrontmatter', () => {
  it('maps the seven types, superseded and common synonyms; rejects others', () => {
    expect(typeFromFrontmatter('project')).toBe('project');
    expect(typeFromFrontmatter(' Feedback ')).toBe('feedback');
    expect(typeFromFrontmatter('superseded')).toBe('superseded');
    expect(typeFromFrontmatter('preference')).toBe('feedback');
    expect(typeFromFrontmatter('gotcha')).toBe('pattern');
    expect(typeFromFrontmatter('banana')).toBeUndefined();
    expect(typeFromFrontmatter(5)).toBeUndefined();
    expect(typeFromFrontmatter(undefined)).toBeUndefined();
  });
});
