// inputs -> core -> publish. The three modes (report, pr, comment), the degradations
// (fork or read-only token -> report with a notice), outputs and fail-on.
import * as core from '@actions/core';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Entry, Finding, MemoryFile, PlanItem, Report, Severity } from '../types.js';
import type { PruneView } from '../report/pr-body.js';
import { renderPrBody } from '../report/pr-body.js';
import { renderPrComment, isClean } from '../report/pr-comment.js';
import { parseInputs, type ActionInputs, type FailOn } from './inputs.js';
import { readContext, resolveMode, type RunContext } from './context.js';
import { createClient, type Octokit } from './client.js';
import { Git, GitError, BOT_IDENTITY, basicCredential, parseAddedLines, removedText, type DiffChange } from './git.js';
import {
  addLabels,
  createPullRequest,
  decidePullRequest,
  findOpenPullRequest,
  sameBody,
  updatePullRequest,
  type PullRequestOperation,
  type RepoRef,
} from './pull-request.js';
import { upsertStickyComment } from './comment.js';
import { planAnnotations } from './annotations.js';
import { analysePullRequest, isManifest, type PrAnalysis } from './stale.js';
import { renderSummary } from './summary.js';
import { VERSION } from '../version.js';
import { CONTRACT_KINDS } from '../report/findings.js';
import { LOG_ENTRY_HEADING } from '../apply/log.js';

// ------------------------------------------------------------------ engine contract

export interface EngineOptions {
  root: string;
  memory?: string[];
  configPath?: string;
  token?: string;
  repoSlug?: string;
  apiUrl?: string;
}

export interface AuditLike {
  report: Report;
  files: MemoryFile[];
  entries: Entry[];
  findings: Finding[];
  plan: PlanItem[];
  /** The configuration the audit ran with (which checks were on). */
  config?: { checks: Record<string, boolean> };
}

export type PruneLike = PruneView & { audit: AuditLike; written: boolean; diff: string; warnings?: string[]; archivePath?: string };

/** The core the Action wraps (src/audit.ts audit() and src/commands/prune.ts runPrune()). */
export interface Engine {
  audit(opts: EngineOptions): Promise<AuditLike>;
  prune(opts: EngineOptions & { write: boolean }): Promise<PruneLike>;
}

export interface ActionResult {
  mode: 'report' | 'pr' | 'comment';
  requestedMode: string;
  findings: number;
  failing: number;
  operation?: PullRequestOperation;
  pullRequest?: { number: number; url: string };
  comment?: { operation: string; id: number | null; url: string | null };
  notices: string[];
}

const FAIL_LEVELS: Record<FailOn, Severity[]> = {
  error: ['error'],
  warning: ['error', 'warning'],
  info: ['error', 'warning', 'info'],
  never: [],
};

export function failingFindings(findings: Finding[], failOn: FailOn): Finding[] {
  const levels = FAIL_LEVELS[failOn];
  return findings.filter((f) => levels.includes(f.severity));
}

const PERMISSION_RE = /\b403\b|permission to .* denied|not allowed to push|authentication failed|could not read username|write access .* not granted/i;

class Degrade extends Error {}

export async function runAction(engine: Engine, env: NodeJS.ProcessEnv = process.env): Promise<ActionResult> {
  const inputs = parseInputs((name) => core.getInput(name));
  if (inputs.token) {
    core.setSecret(inputs.token);
    core.setSecret(basicCredential(inputs.token));
  }
  const ctx = readContext(env);
  const root = isAbsolute(inputs.workingDirectory) ? inputs.workingDirectory : resolve(ctx.workspace, inputs.workingDirectory);
  const repoRef: RepoRef = { owner: ctx.owner, repo: ctx.repo };
  const notices: string[] = [];
  const notice = (msg: string): void => {
    notices.push(msg);
    core.notice(msg, { title: 'memory-audit' });
  };

  let mode = resolveMode(inputs.mode, ctx);
  // pr mode builds the prune commit on the checked-out commit: on a pull-request event that is the
  // pull request's merge or head ref, so the prune branch would carry the pull request's own code.
  if (mode === 'pr' && (ctx.pullRequest || ctx.eventName.startsWith('pull_request') || /^refs\/pull\//.test(env.GITHUB_REF ?? ''))) {
    const to = ctx.pullRequest ? 'comment' : 'report';
    notice(
      `Mode "pr" never runs on a pull request ref (this is a "${ctx.eventName || 'unknown'}" event): ` +
        `${to === 'comment' ? 'commenting on the pull request' : 'reporting only'} instead. Run \`mode: pr\` on \`schedule\` or \`workflow_dispatch\`.`,
    );
    mode = to;
  }
  core.info(`memory-audit ${VERSION}: ${mode} mode${inputs.dryRun ? ' (dry run)' : ''} on ${root}`);
  if (mode === 'comment' && !ctx.pullRequest) {
    notice(`Mode "comment" needs a pull_request event (this is "${ctx.eventName || 'unknown'}"); reporting only.`);
    mode = 'report';
  }
  // A pull request from another repository gets a read-only token on `pull_request`: no comment
  // can be posted, but the analysis is the same (fail-on counts what the pull request changes,
  // the comment goes to the job summary).
  const commentBlocked =
    mode === 'comment' && ctx.pullRequest?.fromFork && ctx.eventName === 'pull_request'
      ? 'This pull request comes from a fork, so the workflow token is read-only: no comment was posted; ' +
        'the comment is in the job summary, and fail-on counts only what the pull request changes. ' +
        'Run memory-audit on `pull_request_target` (it only reads files; check out the pull request head) or give the job a token that can write.'
      : null;
  if ((mode === 'pr' || mode === 'comment') && (!ctx.owner || !ctx.repo)) {
    notice(`Mode "${mode}" needs GITHUB_REPOSITORY (owner/name); reporting only.`);
    mode = 'report';
  }
  if ((mode === 'pr' || mode === 'comment') && !inputs.token) {
    notice(`Mode "${mode}" needs a token (input \`token\`); reporting only.`);
    mode = 'report';
  }
  if (mode === 'pr' && ctx.pullRequest?.fromFork) {
    notice('A pull request from a fork cannot push a prune branch; reporting only.');
    mode = 'report';
  }

  const git = new Git(root, { token: inputs.token || undefined });
  // pr mode closes the pull request when history shows nothing stale: a shallow clone cannot show
  // renames or deletions, so fetch the rest of the history first (same auth as the push).
  let unshallowError: string | null = null;
  if (mode === 'pr' && (await git.isShallow())) {
    try {
      await git.unshallow();
      core.info('memory-audit: the checkout was shallow; fetched its full history.');
    } catch (err) {
      unshallowError = (err instanceof GitError ? err.stderr.trim().split('\n').pop() : String(err)) || 'unknown error';
    }
  }
  const historyComplete = mode !== 'pr' || !(await git.isShallow());
  if (await git.isShallow()) {
    notice(
      'Shallow checkout: renames, deletions and recency come from git history, which is cut short here. ' +
        'Use `actions/checkout` with `fetch-depth: 0` for complete results.',
    );
  }

  const engineOpts: EngineOptions = {
    root,
    memory: inputs.memoryPaths.length > 0 ? inputs.memoryPaths : undefined,
    configPath: inputs.configPath,
    token: inputs.token || undefined,
    repoSlug: inputs.githubRepo || (ctx.owner && ctx.repo ? `${ctx.owner}/${ctx.repo}` : undefined),
    apiUrl: ctx.apiUrl,
  };
  const actions: string[] = [];
  const extra: string[] = [];
  let overflow: string | null = null;
  let audit: AuditLike;
  let reported: Finding[];
  const result: ActionResult = { mode, requestedMode: inputs.mode, findings: 0, failing: 0, notices };
  // A failure to publish still leaves the summary, annotations and outputs behind.
  let publishError: Error | null = null;

  if (mode === 'pr') {
    const prune = await engine.prune({ ...engineOpts, write: !inputs.dryRun });
    audit = prune.audit;
    reported = audit.findings;
    try {
      const out = await publishPullRequest({ git, api: createClient(inputs.token, ctx.apiUrl), inputs, ctx, repoRef, prune, actions, historyComplete, unshallowError });
      overflow = out.overflow;
      result.operation = out.operation;
      if (out.pullRequest) result.pullRequest = out.pullRequest;
    } catch (err) {
      if (err instanceof Degrade) {
        notice(err.message);
        result.mode = 'report';
      } else {
        publishError = err instanceof Error ? err : new Error(String(err));
        actions.push(`❌ ${publishError.message}`);
      }
      result.operation = 'none';
    }
  } else if (mode === 'comment') {
    audit = await engine.audit(engineOpts);
    reported = audit.findings;
    try {
      const out = await publishComment({ git, inputs, ctx, repoRef, audit, root, actions, notice, blocked: commentBlocked });
      reported = out.analysis.findings;
      overflow = out.overflow;
      if (out.body) extra.push(out.body);
      if (out.comment) result.comment = out.comment;
      if (out.degraded) result.mode = 'report';
    } catch (err) {
      publishError = err instanceof Error ? err : new Error(String(err));
      actions.push(`❌ ${publishError.message}`);
    }
  } else {
    audit = await engine.audit(engineOpts);
    reported = audit.findings;
  }

  // Annotations, summary, outputs, fail-on.
  if (inputs.annotations) {
    // Annotation paths are relative to the workspace, the repository may be a folder inside it.
    const prefix = relative(ctx.workspace, root).split(sep).join('/');
    const annotate = prefix && !prefix.startsWith('..') && !isAbsolute(prefix) ? prefix : '';
    for (const a of planAnnotations(reported).annotations) {
      const file = a.file ? (annotate ? `${annotate}/${a.file}` : a.file) : undefined;
      const props = { title: a.title, ...(file ? { file } : {}), ...(a.startLine ? { startLine: a.startLine } : {}) };
      if (a.level === 'error') core.error(a.message, props);
      else if (a.level === 'warning') core.warning(a.message, props);
      else core.notice(a.message, props);
    }
  }
  const reportPath = writeReport(audit.report, env);
  core.setOutput('findings-count', String(audit.report.findings.length));
  core.setOutput('report-json', reportJsonOutput(audit.report, reportPath));
  core.setOutput('report-path', reportPath);
  core.setOutput('mode', result.mode);
  const sev = audit.report.summary.bySeverity ?? {};
  core.setOutput('errors-count', String(sev.error ?? 0));
  core.setOutput('warnings-count', String(sev.warning ?? 0));
  if (result.operation !== undefined || mode === 'pr') {
    core.setOutput('pull-request-operation', result.operation ?? 'none');
    core.setOutput('pull-request-number', result.pullRequest ? String(result.pullRequest.number) : '');
    core.setOutput('pull-request-url', result.pullRequest?.url ?? '');
  }
  if (result.comment) {
    core.setOutput('comment-id', result.comment.id === null ? '' : String(result.comment.id));
    core.setOutput('comment-url', result.comment.url ?? '');
  }
  if (env.GITHUB_STEP_SUMMARY) {
    const md = renderSummary({
      mode: result.mode,
      dryRun: inputs.dryRun,
      report: audit.report,
      actions: [...notices.map((n) => `ℹ️ ${n}`), ...actions],
      overflow,
      extra,
    });
    await core.summary.addRaw(md).write();
  }
  result.findings = audit.report.findings.length;
  // Notes (what could not be checked, remarks about the run) are not findings about memory.
  const failing = failingFindings(reported.filter((f) => CONTRACT_KINDS.has(f.kind)), inputs.failOn);
  result.failing = failing.length;
  if (publishError) {
    core.setFailed(publishError.message);
  } else if (failing.length > 0) {
    core.setFailed(
      `memory-audit: ${failing.length} finding${failing.length === 1 ? '' : 's'} at or above "${inputs.failOn}"` +
        `${mode === 'comment' ? ' in what this pull request changes' : ''} (input fail-on).`,
    );
  }
  return result;
}

/** Step outputs share a 1 MB budget per job (bytes of UTF-8): past this many bytes `report-json` leaves out entries and plan. */
export const REPORT_OUTPUT_LIMIT = 900_000;

/** The `report-json` output: the whole report as compact JSON, or, when too large, the report without
 *  `entries` and `plan` and with `truncated` and `reportPath` (the full file). Measured in bytes:
 *  memory in Chinese or Japanese takes three bytes a character. */
export function reportJsonOutput(report: Report, reportPath: string): string {
  const fits = (json: string): boolean => Buffer.byteLength(json, 'utf8') <= REPORT_OUTPUT_LIMIT;
  const full = JSON.stringify(report);
  if (fits(full)) return full;
  const reduced = JSON.stringify({ ...report, entries: [], plan: [], truncated: true, reportPath });
  if (fits(reduced)) return reduced;
  return JSON.stringify({ schemaVersion: report.schemaVersion, tool: report.tool, repo: report.repo, files: report.files, findings: [], entries: [], plan: [], summary: report.summary, truncated: true, reportPath });
}

/** Files the prune writes about itself, dated by the run: the pruning log, the archive, SUPERSEDED records. */
function recordPaths(prune: PruneLike): Set<string> {
  return new Set([prune.logPath, prune.archivePath ?? '', ...(prune.supersededFiles ?? [])].filter(Boolean));
}

/**
 * Whether the prune branch already carries this run's edits: its one commit changes the same
 * paths, from the same base content, into the same memory (records aside: the log, archive and
 * SUPERSEDED files are dated by the run that wrote them). A weekly run that finds the same stale
 * entries then pushes nothing, even though today's date or unrelated commits on the base branch
 * would make a different tree.
 */
async function sameEditsOnSameBase(git: Git, branchSha: string, head: string, tree: string, records: Set<string>): Promise<boolean> {
  const parents = await git.parents(branchSha);
  if (parents.length !== 1 || !(await git.hasCommit(parents[0]))) return false;
  const theirs = await git.changedBlobs(parents[0], branchSha);
  const ours = await git.changedBlobs(head, tree);
  if (theirs.size !== ours.size) return false;
  const dated: Array<[string, string]> = [];
  for (const [path, mine] of ours) {
    const other = theirs.get(path);
    if (!other || other.before !== mine.before) return false;
    if (!records.has(path) && other.after !== mine.after) dated.push([other.after, mine.after]);
  }
  if (dated.length === 0) return true;
  // A memory file whose only difference is the date inside `[corrected YYYY-MM-DD]` markers holds
  // the same correction, dated by the run that wrote it: equal, like the records (one cat-file call).
  const text = await git.readBlobs(dated.flat());
  const uncorrected = (t: string): string => t.replace(CORRECTED_MARKER, '[corrected]');
  return dated.every(([a, b]) => text.has(a) && text.has(b) && uncorrected(text.get(a)!) === uncorrected(text.get(b)!));
}

/** `[corrected YYYY-MM-DD]`, the marker of an in-place correction (src/policy/decide.ts). */
const CORRECTED_MARKER = /\[corrected \d{4}-\d{2}-\d{2}\]/g;
const LOG_HEADINGS = new RegExp(LOG_ENTRY_HEADING.source, 'gm');

/** A description with its run dates blanked: `[corrected …]` markers and pruning-log entry headings. */
function undated(text: string): string {
  return text.replace(CORRECTED_MARKER, '[corrected]').replace(LOG_HEADINGS, '## audit');
}

/**
 * The description already there, when the dates of the run (the log entry heading, `[corrected]`
 * markers) are the only difference: the branch kept from that run carries its dated records.
 */
function withLogDateOf(existingBody: string, body: string): string {
  return sameBody(undated(body), undated(existingBody)) ? existingBody : body;
}

/**
 * Whether the remote prune branch is memory-audit's own: one commit whose committer is the bot
 * (amending or rebasing makes whoever did it the committer), authored by the bot or carrying our
 * message, on a commit of the base branch (its parent is in the checked-out history). Anything
 * else means people worked on the branch, and a force-push would throw their commits away.
 */
async function isOwnBranchTip(git: Git, sha: string, head: string, commitMessage: string): Promise<boolean> {
  if (!(await git.hasCommit(sha))) return false;
  const c = await git.commitInfo(sha);
  if (c.parents.length !== 1 || c.committer.email !== BOT_IDENTITY.email) return false;
  const subject = commitMessage.split('\n', 1)[0].trim();
  if (c.author.email !== BOT_IDENTITY.email && c.subject.trim() !== subject) return false;
  return git.isAncestor(c.parents[0], head);
}

/** A push refused by a branch protection rule (GH006) or a repository ruleset (GH013). */
const PROTECTION_RE = /\bGH00[36]\b|\bGH013\b|protected branch|rule violations?/i;

function writeReport(report: Report, env: NodeJS.ProcessEnv): string {
  const dir = env.RUNNER_TEMP || tmpdir();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'memory-audit-report.json');
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}

// ------------------------------------------------------------------ pr mode

interface PrArgs {
  git: Git;
  api: Octokit;
  inputs: ActionInputs;
  ctx: RunContext;
  repoRef: RepoRef;
  prune: PruneLike;
  actions: string[];
  /** False when the checkout stayed shallow (`unshallowError` says why): results are incomplete. */
  historyComplete?: boolean;
  unshallowError?: string | null;
}

async function publishPullRequest(a: PrArgs): Promise<{
  operation: PullRequestOperation;
  pullRequest?: { number: number; url: string };
  overflow: string | null;
}> {
  const { git, api, inputs, ctx, repoRef, prune, actions, historyComplete = true } = a;
  const branch = inputs.branch;
  if (!(await git.isValidBranch(branch))) throw new Error(`Input "branch" is not a valid branch name: ${branch}`);
  const rendered = renderPrBody(prune, { version: prune.audit.report.tool.version });
  if (rendered.overflow) actions.push('The pull request description was shortened to fit GitHub\'s limit; the rest is below.');

  const remoteExec = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      // A rule refuses the push: say which branch and what to do, not the git command line.
      if (err instanceof GitError && PROTECTION_RE.test(err.stderr)) {
        const said = err.stderr
          .split('\n')
          .filter((l) => /^remote:/.test(l))
          .map((l) => l.replace(/^remote:\s*(error:\s*)?/, '').trim())
          .filter(Boolean)
          .slice(0, 4)
          .join(' ');
        throw new Error(
          `A branch protection rule or ruleset blocks pushing \`${branch}\`${said ? ` (${said})` : ''}. ` +
            'Set the `branch` input to a branch the rules allow, or add this workflow (its token or GitHub App) to the rule\'s bypass list.',
        );
      }
      if (err instanceof GitError && PERMISSION_RE.test(err.stderr)) {
        const lines = err.stderr.trim().split('\n');
        const why = (lines.find((l) => PERMISSION_RE.test(l)) ?? lines[lines.length - 1] ?? '').replace(/^remote:\s*/, '').trim();
        throw new Degrade(`The token cannot push to the repository (${why}); reporting only. ` +
          'Grant `permissions: { contents: write, pull-requests: write }` or pass a token with write access.');
      }
      throw err;
    }
  };

  for (const w of prune.warnings ?? []) actions.push(`⚠️ ${w}`);
  const inRepo = (p: string): boolean => !isAbsolute(p) && !p.split('/').includes('..');
  const outside = prune.changes.filter((c) => !inRepo(c.file));
  if (outside.length > 0) actions.push(`${outside.length} changed file(s) outside the repository were left out of the pull request.`);
  const paths = [...new Set(prune.changes.map((c) => c.file).filter(inRepo))].sort();
  const head = await git.head();
  let tree: string | null = null;
  if (paths.length > 0 && !inputs.dryRun) {
    tree = await git.buildTree(head, paths);
    if (tree === (await git.treeOf(head))) tree = null;
  }
  const hasChanges = inputs.dryRun ? paths.length > 0 : tree !== null;
  const remoteSha = await remoteExec(() => git.remoteBranchSha(branch));
  const existing = await findOpenPullRequest(api, repoRef, branch);
  const kept = existing ? { pullRequest: { number: existing.number, url: existing.url } } : {};
  const what = [existing ? `pull request #${existing.number}` : '', remoteSha ? `branch \`${branch}\`` : ''].filter(Boolean).join(' and ');
  if (!historyComplete) {
    // Shallow history cannot see renames and deletions: what it finds is a subset, so it never
    // closes, deletes or rewrites what a complete run opened.
    actions.push(
      `⚠️ The checkout is shallow and its full history could not be fetched (${a.unshallowError ?? 'still shallow'}): the results are incomplete.` +
        (what ? ` ${what[0].toUpperCase()}${what.slice(1)} left as they are.` : '') +
        ' Use `actions/checkout` with `fetch-depth: 0`.',
    );
    if (what) return { operation: 'none', overflow: rendered.overflow, ...kept };
  }
  if (remoteSha && !(await git.hasCommit(remoteSha))) {
    // The branch tip and its parent are all that is compared; never turn a full clone shallow.
    const depth = (await git.isShallow()) ? 2 : undefined;
    await remoteExec(() => git.fetch([`refs/heads/${branch}`], depth));
  }
  if (remoteSha && !(await isOwnBranchTip(git, remoteSha, head, inputs.commitMessage))) {
    // Nothing is lost: commits people pushed onto the branch are never force-pushed away or deleted.
    const msg =
      `Human commits are on branch \`${branch}\` (its tip is not memory-audit's one commit on the base branch), ` +
      `so it${existing ? ` and pull request #${existing.number}` : ''} ${existing ? 'were' : 'was'} left as they are. ` +
      'Merge or close the pull request, or delete the branch, to let the next run rebuild it.';
    core.warning(msg, { title: 'memory-audit' });
    actions.push(`⚠️ ${msg}`);
    return { operation: 'none', overflow: rendered.overflow, ...kept };
  }
  let branchUpToDate = false;
  /** The branch holds this run's edits, written (and dated) by an earlier run. */
  let keptFromEarlierRun = false;
  if (tree && remoteSha) {
    if (await git.hasCommit(remoteSha)) {
      branchUpToDate = (await git.treeOf(remoteSha)) === tree;
      if (!branchUpToDate) branchUpToDate = keptFromEarlierRun = await sameEditsOnSameBase(git, remoteSha, head, tree, recordPaths(prune));
    }
  }
  // A branch kept from an earlier run carries that run's log entry: so does the description.
  const body = keptFromEarlierRun && existing ? withLogDateOf(existing.body, rendered.body) : rendered.body;
  const current = await git.currentBranch();
  const onPruneBranch = current === branch || ctx.refName === branch;
  const base =
    inputs.base ||
    (onPruneBranch ? '' : current || (ctx.refName && !ctx.pullRequest ? ctx.refName : '')) ||
    ctx.defaultBranch ||
    'main';
  if (base === branch) throw new Error(`The prune branch "${branch}" cannot be its own base; run on the base branch or set the \`base\` input.`);
  const decision = decidePullRequest({
    hasChanges,
    existing,
    remoteBranchSha: remoteSha,
    branchUpToDate,
    title: inputs.title,
    body,
    base,
    labels: inputs.labels,
  });

  if (inputs.dryRun) {
    const would =
      decision.pr === 'create'
        ? `create a pull request from \`${branch}\` into \`${base}\``
        : decision.pr === 'close'
          ? `close pull request #${existing?.number} and delete \`${branch}\``
          : existing
            ? `update pull request #${existing.number}`
            : 'change nothing';
    actions.push(`Dry run: ${paths.length} file(s) would change; memory-audit would ${would}.`);
    return { operation: 'none', overflow: rendered.overflow, ...(existing ? { pullRequest: { number: existing.number, url: existing.url } } : {}) };
  }

  if (decision.push && tree) {
    const commit = await git.commitTree(tree, head, inputs.commitMessage, BOT_IDENTITY);
    await remoteExec(() => git.pushBranch(commit, branch, remoteSha));
    actions.push(`Pushed ${paths.length} changed file(s) to \`${branch}\` (${commit.slice(0, 7)}).`);
  } else if (hasChanges) {
    actions.push(`Branch \`${branch}\` already holds these edits; nothing pushed.`);
  }

  let pullRequest: { number: number; url: string } | undefined;
  if (decision.pr === 'create') {
    const { pr, raced } = await createPullRequest(api, repoRef, { branch, base, title: inputs.title, body: rendered.body });
    pullRequest = { number: pr.number, url: pr.url };
    if (raced) {
      await updatePullRequest(api, repoRef, pr.number, { title: inputs.title, body: rendered.body });
      actions.push(`Pull request #${pr.number} already existed; updated it.`);
    } else {
      actions.push(`Created pull request #${pr.number}: ${pr.url}`);
    }
    await labelSafely(api, repoRef, pr.number, inputs.labels);
    return { operation: raced ? 'updated' : 'created', pullRequest, overflow: rendered.overflow };
  }
  if (existing) pullRequest = { number: existing.number, url: existing.url };
  if (decision.pr === 'update' && existing) {
    if (Object.keys(decision.patch).length > 0) await updatePullRequest(api, repoRef, existing.number, decision.patch);
    await labelSafely(api, repoRef, existing.number, decision.addLabels);
  }
  if (decision.pr === 'close' && existing) {
    await updatePullRequest(api, repoRef, existing.number, { state: 'closed' });
    actions.push(`Nothing left to prune: closed pull request #${existing.number}.`);
  }
  if (decision.deleteBranch) {
    await remoteExec(() => git.deleteRemoteBranch(branch, remoteSha));
    actions.push(`Deleted branch \`${branch}\`.`);
  }
  if (decision.operation === 'updated') actions.push(`Updated pull request #${existing?.number}: ${existing?.url}`);
  if (decision.operation === 'none' && hasChanges) actions.push(`Pull request #${existing?.number} is already up to date.`);
  if (decision.operation === 'none' && !hasChanges) actions.push('Nothing to prune.');
  return { operation: decision.operation, overflow: rendered.overflow, ...(pullRequest ? { pullRequest } : {}) };
}

async function labelSafely(api: Octokit, r: RepoRef, n: number, labels: string[]): Promise<void> {
  try {
    await addLabels(api, r, n, labels);
  } catch (err) {
    core.warning(`Could not label pull request #${n}: ${(err as Error).message}`);
  }
}

// ------------------------------------------------------------------ comment mode

interface CommentArgs {
  git: Git;
  inputs: ActionInputs;
  ctx: RunContext;
  repoRef: RepoRef;
  audit: AuditLike;
  root: string;
  actions: string[];
  notice: (msg: string) => void;
  /** Why no comment can be posted (a fork's read-only token): the analysis still runs. */
  blocked?: string | null;
}

/**
 * Whether the checkout holds the pull request: HEAD is its head commit, a merge of it (GitHub's
 * `refs/pull/N/merge`) or a later commit of it. The parents are read from the commit object,
 * which a shallow clone keeps even when it lacks the parents themselves (`Git.commitInfo`
 * reads them through `git log`, which shows none at a shallow boundary).
 */
async function holdsPullRequest(git: Git, headSha: string): Promise<boolean> {
  const raw = await git.run(['cat-file', 'commit', 'HEAD']);
  if (raw.code !== 0) return true; // no commit to compare: the diff reports what is wrong
  const self = (await git.run(['rev-parse', 'HEAD'])).stdout.trim();
  if (self === headSha) return true;
  const header = raw.stdout.split('\n\n', 1)[0] ?? '';
  const parents = [...header.matchAll(/^parent ([0-9a-f]{40,64})$/gm)].map((m) => m[1]);
  if (parents.includes(headSha)) return true;
  return git.isAncestor(headSha, 'HEAD');
}

/** The diff of the pull request: changed paths, added memory lines, removed manifest text. */
export async function pullRequestDiff(
  git: Git,
  baseSha: string,
  memoryFiles: string[],
): Promise<{ changes: DiffChange[]; addedLines: Map<string, Set<number>>; manifestRemoved: Map<string, string>; notes: string[] }> {
  const notes: string[] = [];
  if (!(await git.hasCommit(baseSha))) {
    try {
      await git.fetch([baseSha], (await git.isShallow()) ? 1 : undefined);
    } catch {
      /* reported below */
    }
    if (!(await git.hasCommit(baseSha))) {
      throw new Error(
        `The base commit ${baseSha.slice(0, 7)} is not in the checkout and could not be fetched. Use \`actions/checkout\` with \`fetch-depth: 0\`.`,
      );
    }
  }
  const threeDot = (await git.mergeBase(baseSha, 'HEAD')) !== null;
  if (!threeDot) {
    notes.push(
      'The checkout is shallow, so the pull request was compared with its base tree directly (no merge base). ' +
        'Use `actions/checkout` with `fetch-depth: 0` for exact results.',
    );
  }
  const changes = await git.diffNameStatus(baseSha, 'HEAD', threeDot);
  const memory = new Set(memoryFiles);
  const addedLines = new Map<string, Set<number>>();
  const manifestRemoved = new Map<string, string>();
  for (const c of changes) {
    const pathspec = c.from ? [c.from, c.path] : [c.path];
    if (memory.has(c.path) && c.status !== 'D') {
      addedLines.set(c.path, new Set(parseAddedLines(await git.diffPatch(baseSha, 'HEAD', threeDot, pathspec))));
    }
    if (pathspec.some(isManifest)) {
      const removed = removedText(await git.diffPatch(baseSha, 'HEAD', threeDot, pathspec));
      for (const p of pathspec) if (isManifest(p)) manifestRemoved.set(p, removed);
    }
  }
  return { changes, addedLines, manifestRemoved, notes };
}

async function publishComment(a: CommentArgs): Promise<{
  analysis: PrAnalysis;
  body: string;
  overflow: string | null;
  comment?: { operation: string; id: number | null; url: string | null };
  degraded: boolean;
}> {
  const { git, inputs, ctx, repoRef, audit, root, actions } = a;
  const pr = ctx.pullRequest!;
  // `pull_request_target` runs in the base repository: a plain actions/checkout gives the base
  // branch, whose diff with the base is empty. Say so instead of reporting a clean pull request.
  if (pr.headSha && !(await holdsPullRequest(git, pr.headSha))) {
    const here = (await git.head()).slice(0, 7);
    const msg =
      `The workspace does not hold this pull request's code: HEAD is ${here}, neither the pull request's head ${pr.headSha.slice(0, 7)} nor a merge of it` +
      `${ctx.eventName === 'pull_request_target' ? ' (on `pull_request_target`, `actions/checkout` checks out the base branch unless given a `ref`)' : ''}. ` +
      'Nothing was checked and no comment was posted. Check out the pull request: `actions/checkout` with ' +
      '`ref: ${{ github.event.pull_request.head.sha }}` and `fetch-depth: 0`.';
    core.warning(msg, { title: 'memory-audit' });
    actions.push(`⚠️ ${msg}`);
    return { analysis: { impacts: [], added: [], entryIds: [], findings: [] }, body: '', overflow: null, degraded: true };
  }
  if (a.blocked) a.notice(a.blocked);
  const diff = await pullRequestDiff(git, pr.baseSha, audit.files.map((f) => f.path));
  // The head audit's path findings are the whole answer when its path check ran with full
  // history; otherwise (shallow or no history, check disabled) path references are matched
  // against the diff directly.
  const pathRefsChecked = audit.config?.checks['path'] !== false && !audit.findings.some((f) => f.kind === 'shallow-history' && f.severity !== 'info');
  const analysis = analysePullRequest({
    changes: diff.changes,
    findings: audit.findings,
    entries: audit.entries,
    addedLines: diff.addedLines,
    manifestRemoved: diff.manifestRemoved,
    existsAtHead: (p) => existsSync(join(root, p)),
    pathRefsChecked,
  });
  const head = (pr.headSha || (await git.head())).slice(0, 7);
  const rendered = renderPrComment(analysis, { head, version: audit.report.tool.version, notes: diff.notes });
  const clean = isClean(analysis);
  actions.push(
    clean
      ? `Pull request #${pr.number}: nothing it changes makes memory stale.`
      : `Pull request #${pr.number}: ${analysis.entryIds.length} memory entr${analysis.entryIds.length === 1 ? 'y' : 'ies'} made stale or added with findings.`,
  );
  if (a.blocked) return { analysis, body: rendered.body, overflow: rendered.overflow, degraded: true };
  if (inputs.dryRun) {
    actions.push('Dry run: the comment below was not posted.');
    return { analysis, body: rendered.body, overflow: rendered.overflow, degraded: false };
  }
  const api = createClient(inputs.token, ctx.apiUrl);
  try {
    const c = await upsertStickyComment(api, repoRef, pr.number, rendered.body, { createIfMissing: !clean });
    if (c.operation === 'created') actions.push(`Commented: ${c.url}`);
    else if (c.operation === 'updated') actions.push(`Updated the comment: ${c.url}`);
    else if (c.operation === 'unchanged') actions.push(`The comment is already up to date: ${c.url}`);
    return { analysis, body: rendered.body, overflow: rendered.overflow, comment: c, degraded: false };
  } catch (err) {
    if (/failed with 403/.test((err as Error).message)) {
      a.notice(
        `No comment was posted: ${(err as Error).message} The comment is in the job summary, and fail-on counts only what the pull request changes.`,
      );
      return { analysis, body: rendered.body, overflow: rendered.overflow, degraded: true };
    }
    throw err;
  }
}
