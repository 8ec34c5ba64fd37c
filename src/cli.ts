// argv -> options -> core -> exit code. Exit 0: nothing at or above --fail-on; 1: something was; 2: usage or fatal error.
// restore: 0 when it put something back, 1 when it put nothing back.
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { audit } from './audit.js';
import { VERSION } from './version.js';
import { renderJson } from './report/json.js';
import { renderMarkdown } from './report/markdown.js';
import { colorEnabled, renderText } from './report/text.js';
import { termSafe } from './report/escape.js';
import type { Report, Severity } from './types.js';

export interface CliIO {
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Breaks a would-be workflow command at the start of any line (a zero-width space after its first character). */
export function neutraliseWorkflowCommands(text: string): string {
  return text.replace(/^([ \t]*)(::|##\[)/gm, (_m, blanks: string, cmd: string) => `${blanks}${cmd[0]}\u200b${cmd.slice(1)}`);
}

function guardWorkflowCommands(io: CliIO): CliIO {
  const wrap = (s: CliIO['stdout']): CliIO['stdout'] => ({ isTTY: s.isTTY, write: (t: string) => s.write(neutraliseWorkflowCommands(t)) });
  return { ...io, stdout: wrap(io.stdout), stderr: wrap(io.stderr) };
}

export const HELP = `memory-audit ${VERSION} — audit the memory of AI coding agents against the repository.

Usage:
  memory-audit [audit] [options]        report stale, duplicate, ephemeral and risky memory entries
  memory-audit prune [options]          plan the pruning edits and show the diff (dry run)
  memory-audit prune --write [options]  apply them, append the pruning log and archive removed text
  memory-audit restore <id> [options]   put an archived entry back (entry id or archive record id)

Options:
  --repo DIR            repository to audit (default: the git repository holding the current directory)
  --memory PATH         memory file, folder or glob; repeatable (default: auto-detect)
  --config FILE         configuration file (default: .memory-audit.yml at the repository root)
  --format FORMAT       text | markdown | json (default: text)
  --output FILE         also write the report (in --format) to FILE
  --fail-on LEVEL       error | warning | info | never (default: error)
  --token TOKEN         GitHub token for issue/PR status (default: $GITHUB_TOKEN)
  --github-repo O/R     repository that issue numbers refer to (default: from origin)
  --now DATE            the date to audit as (ISO 8601); also SOURCE_DATE_EPOCH
  --check ID            run only this check; repeatable
  --dry-run             prune/restore: show what would change (default for prune)
  --write               prune: apply the edits to the working tree
  --no-color            no ANSI colours (also NO_COLOR)
  -h, --help            this help
  -v, --version         the version

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage or fatal error.
restore: 0 when it put something back or it was already back, 1 when nothing could be put back (each record left out is named, with why).
`;

class UsageError extends Error {}

const FAIL_LEVELS: Record<string, Severity[]> = {
  error: ['error'],
  warning: ['error', 'warning'],
  info: ['error', 'warning', 'info'],
  never: [],
};

function repoRootFrom(dir: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return dir;
  }
}

function parseNow(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--now: not a date: ${value}`);
  return d;
}

export function failingCount(report: Report, failOn: string): number {
  const levels = FAIL_LEVELS[failOn] ?? [];
  return report.findings.filter((f) => levels.includes(f.severity)).length;
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  // In a GitHub Actions step the runner reads every output line starting (after blanks) with `::`
  // or `##[` as a workflow command; memory text printed in a diff or report must not become one.
  if (io.env.GITHUB_ACTIONS === 'true') io = guardWorkflowCommands(io);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        repo: { type: 'string' },
        memory: { type: 'string', multiple: true },
        config: { type: 'string' },
        format: { type: 'string', default: 'text' },
        output: { type: 'string' },
        'fail-on': { type: 'string', default: 'error' },
        token: { type: 'string' },
        'github-repo': { type: 'string' },
        now: { type: 'string' },
        check: { type: 'string', multiple: true },
        'dry-run': { type: 'boolean' },
        write: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    io.stderr.write(`memory-audit: ${(err as Error).message}\nRun memory-audit --help for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values.version) {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  try {
    const command = positionals[0] ?? 'audit';
    if (!['audit', 'prune', 'restore'].includes(command)) throw new UsageError(`unknown command: ${command}`);
    const format = values.format ?? 'text';
    if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json (got ${format})`);
    const failOn = values['fail-on'] ?? 'error';
    if (!(failOn in FAIL_LEVELS)) throw new UsageError(`--fail-on must be error, warning, info or never (got ${failOn})`);
    if (values.write && values['dry-run']) throw new UsageError('--write and --dry-run exclude each other');
    const repoArg = values.repo ? resolve(io.cwd, values.repo) : undefined;
    if (repoArg && !(existsSync(repoArg) && statSync(repoArg).isDirectory())) throw new UsageError(`--repo: no such directory: ${repoArg}`);
    const root = repoArg ?? repoRootFrom(io.cwd);
    const common = {
      root,
      memory: (values.memory ?? []).map((m) => m),
      configPath: values.config ? resolve(io.cwd, values.config) : undefined,
      token: values.token ?? io.env.GITHUB_TOKEN ?? io.env.GH_TOKEN ?? undefined,
      repoSlug: values['github-repo'],
      now: parseNow(values.now),
      checks: values.check,
    };
    const color = !values['no-color'] && colorEnabled(io.stdout, io.env);

    if (command === 'restore') {
      const id = positionals[1];
      if (!id) throw new UsageError('restore needs an id: memory-audit restore <id>');
      const { runRestore } = await import('./commands/restore.js');
      const result = await runRestore({ root, id, configPath: common.configPath, write: !values['dry-run'] });
      io.stdout.write(result.diff);
      for (const w of result.warnings ?? []) io.stderr.write(`warning: ${termSafe(w)}\n`);
      for (const r of result.restored) io.stderr.write(`restored ${termSafe(r.file)}:${r.line}\n`);
      for (const r of result.skipped) io.stderr.write(`not restored ${termSafe(r.file)}:${r.line} (${termSafe(r.id)}): ${termSafe(r.reason)}\n`);
      // Restoring is idempotent: records already back in place are not a failure. Nothing put back
      // because the text was edited since (or a later removal is in the way) is one.
      const blocked = result.skipped.some((r) => !r.reason.startsWith('already restored'));
      return result.restored.length === 0 && blocked ? 1 : 0;
    }

    let report: Report;
    if (command === 'prune') {
      const { runPrune } = await import('./commands/prune.js');
      const result = await runPrune({ ...common, write: Boolean(values.write) });
      report = result.audit.report;
      if (format === 'json') {
        writeOut(io, values.output, renderJson(report));
      } else {
        const rendered = result.diff || 'Nothing to prune: memory is already clean.\n';
        io.stdout.write(format === 'markdown' ? `\`\`\`diff\n${rendered}\`\`\`\n` : rendered);
        const s = result.summary;
        for (const w of result.warnings) io.stderr.write(`warning: ${termSafe(w)}\n`);
        if (result.changes.length === 0) {
          // Nothing changes (a second run, or only entries for review): say so, write or not.
          io.stderr.write(
            `${values.write ? 'Applied: 0 changes' : 'Nothing to prune'}: ${s.audited} audited, nothing changed, ${s.review} for review.\n`,
          );
        } else {
          io.stderr.write(
            `${result.written ? 'Applied' : 'Dry run'}: ${s.audited} audited, ${s.pruned} pruned, ${s.updated} updated, ` +
              `${s.archived} archived, ${s.inoculated} SUPERSEDED, ${s.review} for review.` +
              (result.written ? '\n' : ' Run with --write to apply.\n'),
          );
        }
        if (values.output) writeFileSync(resolve(io.cwd, values.output), renderJson(report));
      }
    } else {
      report = (await audit(common)).report;
      const rendered =
        format === 'json' ? renderJson(report) : format === 'markdown' ? renderMarkdown(report) : renderText(report, { color });
      if (format === 'json') writeOut(io, values.output, rendered);
      else {
        io.stdout.write(rendered);
        if (values.output) writeFileSync(resolve(io.cwd, values.output), rendered);
      }
    }
    return failingCount(report, failOn) > 0 ? 1 : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`memory-audit: ${err.message}\nRun memory-audit --help for usage.\n`);
      return 2;
    }
    const e = err as Error;
    io.stderr.write(`memory-audit: ${termSafe(e.message)}\n`);
    if (io.env.MEMORY_AUDIT_DEBUG) io.stderr.write(`${e.stack ?? ''}\n`);
    return 2;
  }

  function writeOut(ioArg: CliIO, output: string | undefined, text: string): void {
    ioArg.stdout.write(text);
    if (output) writeFileSync(resolve(ioArg.cwd, output), text);
  }
}
