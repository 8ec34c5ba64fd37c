// gatherEvidence: everything the checks look up, gathered once per run.
//   files      one `git ls-files -z -t --cached --others --deleted --exclude-standard` (or a walk)
//   history    one streamed `git log HEAD --raw -M -z` pass
//   manifests  the working tree at HEAD + one `git cat-file --batch` for historic versions
//   github     issue / PR state for references described as open (token required)
// File index, log pass and manifest reads run concurrently.
import type { Config } from '../config/types.js';
import type { Entry, Evidence, Finding, HistoryIndex } from '../types.js';
import { existsInIndex, gitFileIndex, walkFileIndex } from './files.js';
import { ignoreFileProblems } from './untracked-on-purpose.js';
import { parseRepoSlug, remoteOriginUrl, repoInfo, type RepoInfo } from './git.js';
import { fetchGitHubState } from './github.js';
import { emptyHistory, runLogPass } from './history.js';
import { yieldCpuToGit } from './pump.js';
import { buildManifestHistory, emptyManifestIndex, ManifestChangeCollector, readHeadManifests } from './manifests.js';
import { readPathAliases, type PathAliases } from './tsconfig-paths.js';
import type { FileProblem } from './repo-file.js';

export interface GatherOptions {
  root: string;
  config: Config;
  /** The entries, or a promise of them: only the GitHub step needs them (issue numbers), so the
   *  git passes can run while memory is still being parsed. */
  entries: Entry[] | Promise<Entry[]>;
  /** Memory files (not used for lookups; accepted for the pipeline's convenience). */
  files?: unknown;
  now?: Date;
  token?: string;
  repoSlug?: string;
  apiUrl?: string;
  /** Skip the GitHub API even with a token (tests, offline runs). */
  offline?: boolean;
  /** `repoInfo(root)` when the caller has already asked. */
  info?: Promise<RepoInfo>;
}

export interface GatherResult {
  evidence: Evidence;
  findings: Finding[];
}

const SHALLOW_FIX = 'actions/checkout with fetch-depth: 0';

export async function gatherEvidence(opts: GatherOptions): Promise<GatherResult> {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const findings: Finding[] = [];
  const root = opts.root;
  const now = opts.now ?? new Date();
  const info = await (opts.info ?? repoInfo(root));
  timings.repoInfo = ms(t0);

  const repoSlugP = resolveSlug(opts, info.isRepo);
  const manifests = emptyManifestIndex();
  let history: HistoryIndex;
  let files;
  let pathAliasesP: Promise<PathAliases> = Promise.resolve([]);
  /** tsconfig / jsconfig files that could not be read (pushed to the manifest problems once read, in path order). */
  const configProblems: FileProblem[] = [];

  if (!info.isRepo) {
    const tf = performance.now();
    files = await walkFileIndex(root);
    pathAliasesP = readPathAliases(root, files, configProblems);
    timings.files = ms(tf);
    const tm = performance.now();
    await readHeadManifests(root, files, manifests);
    timings.manifests = ms(tm);
    history = emptyHistory(false, false);
    findings.push(
      runFinding('shallow-history', 'warning', `${root} is not a git repository: files were read from disk, and renames, deletions and history cannot be checked.`, { reason: 'not a git repository' }, 'Run memory-audit inside a git checkout (actions/checkout with fetch-depth: 0).'),
    );
  } else {
    const prefix = info.prefix ?? '';
    const collector = new ManifestChangeCollector(prefix, root);
    const tf = performance.now();
    const filesP = gitFileIndex(root).then((r) => {
      timings.files = ms(tf);
      return r;
    });
    const th = performance.now();
    const logP = info.head
      ? runLogPass(root, { prefix, onChange: collector.onChange }).then((r) => {
          timings.log = ms(th);
          return r;
        })
      : Promise.resolve(null);
    if (info.head) yieldCpuToGit();
    const fr = await filesP;
    files = fr.index;
    pathAliasesP = readPathAliases(root, files, configProblems);
    if (fr.error) {
      findings.push(runFinding('malformed', 'warning', `git ls-files failed: ${fr.error}`, { stage: 'files' }));
    }
    const tm = performance.now();
    const headManifestsP = readHeadManifests(root, files, manifests).then(() => {
      timings.manifestsHead = ms(tm);
    });
    const log = await logP;
    await headManifestsP;
    const fi = files;
    const present = (p: string) => existsInIndex(fi, p);
    if (log && log.code === 0) {
      const tb = performance.now();
      history = log.builder.finish(present, info.shallow);
      timings.historyIndex = ms(tb);
      const tmh = performance.now();
      const mh = await collector.finish();
      manifests.historyBlobs = mh.blobs;
      buildManifestHistory(collector.changes, collector.summaries, manifests);
      timings.manifestHistory = ms(tmh);
      for (const p of mh.problems) manifests.problems.push({ file: '', message: p });
      const warn = history.warnings ?? [];
      if (warn.length) {
        findings.push(
          runFinding('shallow-history', 'info', `git skipped part of its rename detection (${warn[0]}); some renames may be reported as deletions.`, { warnings: warn.slice(0, 5) }),
        );
      }
    } else {
      await collector.finish();
      history = emptyHistory(info.shallow, false);
      const why = !info.head ? 'the repository has no commits yet' : `git log failed: ${(log?.stderr ?? '').trim().split('\n')[0]}`;
      findings.push(
        runFinding('shallow-history', 'warning', `History is not available (${why}); paths are checked against the working tree only.`, { reason: why }),
      );
    }
    if (info.shallow) {
      findings.push(
        runFinding('shallow-history', 'warning', `The repository is a shallow clone (${history.commits} commit${history.commits === 1 ? '' : 's'} of history): renames and deletions before that cannot be told apart from missing paths; use ${SHALLOW_FIX}.`, { commits: history.commits, fix: SHALLOW_FIX }, `In the workflow: uses: actions/checkout@v4 with: fetch-depth: 0`),
      );
    }
  }

  const tg = performance.now();
  const repoSlug = await repoSlugP;
  const token = opts.token ?? opts.config.github?.token ?? undefined;
  const apiUrl = opts.apiUrl ?? process.env.GITHUB_API_URL ?? opts.config.github?.apiUrl ?? 'https://api.github.com';
  const entries = await opts.entries;
  const github = opts.offline
    ? { repo: repoSlug, checked: false, reason: 'offline', issues: new Map() }
    : await fetchGitHubState({ entries, token, repo: repoSlug, apiUrl });
  timings.github = ms(tg);
  const pathAliases = await pathAliasesP;
  // Configuration files that are no manifests but decide findings too: reported the same way.
  const byPath = (a: FileProblem, b: FileProblem) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  manifests.problems.push(...ignoreFileProblems(files), ...configProblems.sort(byPath));
  timings.total = ms(t0);

  const evidence: Evidence = {
    root,
    head: info.head,
    now,
    files,
    history,
    manifests,
    github,
    timings,
    ...(pathAliases.length ? { pathAliases } : {}),
  };
  return { evidence, findings };
}

async function resolveSlug(opts: GatherOptions, isRepo: boolean): Promise<string | undefined> {
  const fromOpts = opts.repoSlug ?? opts.config.github?.repo;
  if (fromOpts) return fromOpts;
  const env = process.env.GITHUB_REPOSITORY;
  if (env && /^[\w.-]+\/[\w.-]+$/.test(env)) return env;
  if (!isRepo) return undefined;
  const url = await remoteOriginUrl(opts.root);
  return url ? parseRepoSlug(url) : undefined;
}

/** A finding about the run as a whole (no entry, no file). */
function runFinding(
  kind: Finding['kind'],
  severity: Finding['severity'],
  message: string,
  evidence: Record<string, unknown>,
  suggestion?: string,
): Finding {
  return { entryId: null, file: '', line: 0, kind, severity, message, evidence, ...(suggestion ? { suggestion: { text: suggestion } } : {}) };
}

const ms = (start: number) => Math.round((performance.now() - start) * 10) / 10;

export { gitFileIndex, walkFileIndex, indexFromPaths, existsInIndex } from './files.js';
export { runLogPass, HistoryBuilder, emptyHistory, normalizePath, READD_WINDOW } from './history.js';
export { readHeadManifests, buildManifestHistory, emptyManifestIndex, manifestKind, parseManifest } from './manifests.js';
export { fetchGitHubState, issueKeys, issueStateFor } from './github.js';
export { parseRepoSlug, repoInfo } from './git.js';
