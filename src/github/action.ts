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
  core.info(`memory-audit ${VERSION}: ${mode} mode${inputs.dryRun ? ' (dry run)' : ''} on ${root}`);
  if (mode === 'comment' && !ctx.pullRequest) {
    notice(`Mode "comment" needs a pull_request event (this is "${ctx.eventName || 'unknown'}"); reporting only.`);
    mode = 'report';
  }
  if (mode === 'comment' && ctx.pullRequest?.fromFork && ctx.eventName === 'pull_request') {
    notice(
      'This pull request comes from a fork, so the workflow token is read-only: reporting in the job summary instead of commenting. ' +
        'Run memory-audit on `pull_request_target` (it only reads files) or give the job a token that can write.',
    );
    mode = 'report';
  }
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
      const out = await publishPullRequest({ git, api: createClient(inputs.token, ctx.apiUrl), inputs, ctx, repoRef, prune, actions });
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
      const out = await publishComment({ git, inputs, ctx, repoRef, audit, root, actions, notice });
      reported = out.analysis.findings;
      overflow = out.overflow;
      extra.push(out.body);
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

/** Step outputs share a 1 MB budget per job: past this size `report-json` leaves out entries and plan. */
export const REPORT_OUTPUT_LIMIT = 900_000;

/** The `report-json` output: the whole report as compact JSON, or, when too large, the report without
 *  `entries` and `plan` and with `truncated` and `reportPath` (the full file). */
export function reportJsonOutput(report: Report, reportPath: string): string {
  const full = JSON.stringify(report);
  if (full.length <= REPORT_OUTPUT_LIMIT) return full;
  const reduced = JSON.stringify({ ...report, entries: [], plan: [], truncated: true, reportPath });
  if (reduced.length <= REPORT_OUTPUT_LIMIT) return reduced;
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
  for (const [path, mine] of ours) {
    const other = theirs.get(path);
    if (!other || other.before !== mine.before) return false;
    if (!records.has(path) && other.after !== mine.after) return false;
  }
  return true;
}

/**
 * The description with the log entry heading of the description already there, when the date of
 * the run is the only difference: the branch kept from that run carries its dated entry.
 */
function withLogDateOf(existingBody: string, body: string, logEntry: string): string {
  const heading = logEntry.split('\n', 1)[0];
  const theirs = LOG_ENTRY_HEADING.exec(existingBody)?.[0];
  if (!heading || !theirs || !body.includes(heading)) return body;
  return sameBody(body.replace(heading, theirs), existingBody) ? existingBody : body;
}

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
}

async function publishPullRequest(a: PrArgs): Promise<{
  operation: PullRequestOperation;
  pullRequest?: { number: number; url: string };
  overflow: string | null;
}> {
  const { git, api, inputs, ctx, repoRef, prune, actions } = a;
  const branch = inputs.branch;
  if (!(await git.isValidBranch(branch))) throw new Error(`Input "branch" is not a valid branch name: ${branch}`);
  const rendered = renderPrBody(prune, { version: prune.audit.report.tool.version });
  if (rendered.overflow) actions.push('The pull request description was shortened to fit GitHub\'s limit; the rest is below.');

  const remoteExec = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
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
  let branchUpToDate = false;
  /** The branch holds this run's edits, written (and dated) by an earlier run. */
  let keptFromEarlierRun = false;
  if (tree && remoteSha) {
    if (!(await git.hasCommit(remoteSha))) {
      // The branch tip and its parent are all that is compared; never turn a full clone shallow.
      const depth = (await git.isShallow()) ? 2 : undefined;
      await remoteExec(() => git.fetch([`refs/heads/${branch}`], depth));
    }
    if (await git.hasCommit(remoteSha)) {
      branchUpToDate = (await git.treeOf(remoteSha)) === tree;
      if (!branchUpToDate) branchUpToDate = keptFromEarlierRun = await sameEditsOnSameBase(git, remoteSha, head, tree, recordPaths(prune));
    }
  }
  // A branch kept from an earlier run carries that run's log entry: so does the description.
  const body = keptFromEarlierRun && existing ? withLogDateOf(existing.body, rendered.body, prune.logEntry) : rendered.body;
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
  const diff = await pullRequestDiff(git, pr.baseSha, audit.files.map((f) => f.path));
  const analysis = analysePullRequest({
    changes: diff.changes,
    findings: audit.findings,
    entries: audit.entries,
    addedLines: diff.addedLines,
    manifestRemoved: diff.manifestRemoved,
    existsAtHead: (p) => existsSync(join(root, p)),
  });
  const head = (pr.headSha || (await git.head())).slice(0, 7);
  const rendered = renderPrComment(analysis, { head, version: audit.report.tool.version, notes: diff.notes });
  const clean = isClean(analysis);
  actions.push(
    clean
      ? `Pull request #${pr.number}: nothing it changes makes memory stale.`
      : `Pull request #${pr.number}: ${analysis.entryIds.length} memory entr${analysis.entryIds.length === 1 ? 'y' : 'ies'} made stale or added with findings.`,
  );
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
      a.notice(`${(err as Error).message} Reporting in the job summary instead.`);
      return { analysis, body: rendered.body, overflow: rendered.overflow, degraded: true };
    }
    throw err;
  }
}
