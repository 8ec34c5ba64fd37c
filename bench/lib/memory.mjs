// Builds a memory set (CLAUDE.md + an auto-memory folder .claude/memory/ with MEMORY.md
// and topic files) for a generated repository, and records the KNOWN ANSWERS: which line
// and reference must yield which finding kind (and successor), which references are valid
// (negatives), which entries are duplicates of each other and which are ephemeral.
import { Rng } from './prng.mjs';
import { makeFate } from './repo.mjs';
import { WORDS, ADJECTIVES, VERBS, TEAMS } from './words.mjs';

/** Bump whenever generated memory or answers change (part of the cache key). */
export const MEM_VERSION = 4;

/** Kinds the bench gates on, and the finding kinds that count for each. */
export const GATED_KINDS = {
  'path-renamed': ['path-renamed'],
  'path-missing': ['path-missing'],
  'script-missing': ['script-missing'],
  package: ['package-missing', 'package-renamed'],
  duplicate: ['duplicate'],
  ephemeral: ['ephemeral'],
};
/** Reported but never gated. */
export const EXTRA_KINDS = { 'count-drift': ['count-drift'] };

// Share of item-bearing entries per category (the rest is plain prose).
const WEIGHTS = {
  validPath: 0.16,
  renamedPath: 0.08,
  deletedPath: 0.06,
  renamedDir: 0.01,
  validScript: 0.05,
  removedScript: 0.04,
  validPackage: 0.05,
  removedPackage: 0.03,
  swappedPackage: 0.03,
  countTrue: 0.005,
  countFalse: 0.005,
  issue: 0.02,
  ephemeral: 0.04,
  duplicate: 0.03,
};
const MIN3 = new Set(['renamedPath', 'deletedPath', 'removedScript', 'removedPackage', 'swappedPackage', 'ephemeral', 'duplicate']);

const PATH_LEADS = [
  'The {w} {w} logic lives in',
  'Start with',
  'Most {w} bugs come from',
  'Keep {adj} {w} helpers next to',
  'When the {w} {w} breaks, check',
  'The {adj} {w} path is implemented in',
  'Tests for the {w} {w} rely on',
  'Configuration for the {adj} {w} is read by',
  'The {team} team owns',
  'Every {w} goes through',
  'Before touching the {w} {w}, read',
  'The entry point for {adj} {w} handling is',
];
const TAILS = [
  'because it {verb} every {w}',
  'and it {verb} the {adj} {w}',
  '(it {verb} {w} {w} for the {team} team)',
  'which {verb} the {w} before the {w} runs',
  'since the {adj} {w} depends on it',
  'so keep its {w} {w} stable',
  'and the {team} team reviews changes to it',
  'where the {adj} {w} {verb} each {w}',
];
const SCRIPT_LEADS = [
  'Run {cmd} before opening a {w} pull request',
  'Use {cmd} to refresh the {adj} {w} {w}',
  'After changing the {w} {w}, run {cmd}',
  'The {team} team expects {cmd} to pass on every {w} change',
  '{cmd} {verb} the {adj} {w} locally',
];
const PKG_LEADS = [
  'The {w} {w} layer depends on the `{pkg}` package from package.json',
  'Install with `npm install {pkg}` when the {adj} {w} is missing',
  'We use the `{pkg}` dependency (see package.json) for {adj} {w} {w}',
  'Upgrading `{pkg}` in package.json needs a check of the {w} {w}',
];
const FILLER = [
  'Prefer the {adj} {w} over the {adj} {w} when the {w} {verb} {w} data',
  'Name {w} files after the {w} they export, never after the {team} team or the {w}',
  'Keep {w} {w} small: one {adj} {w} per module, and {verb} inputs at the {w} edge',
  'Review {adj} {w} changes with the {team} team before merging into the {w} branch',
  'The {w} format is {adj}; the {w} {w} {verb} it without a {adj} {w}',
  'Decision: the {w} {w} stays {adj} because the {team} team {verb} the {w} upstream',
  'User prefers {adj} {w} names and short {w} {w} messages over {adj} ones',
  'Log the {w} id with every {adj} {w} so the {team} team can trace a {w} {w}',
  'Pattern: when a {w} {verb} twice, wrap the {w} in a {adj} {w} and {verb} the {w}',
  'Feedback: explain {adj} {w} trade-offs in the {w} description, with {w} numbers',
  'Never mix {adj} {w} code with {w} {w} helpers; the {team} team split them for a reason',
  'A {adj} {w} must be validated before the {w} {w} sees it, or the {w} gets corrupted',
  'The {w} {w} contract is owned by {team}; ask before changing the {adj} {w} fields',
  'Error messages for the {w} {w} name the {w} and the {adj} {w} that failed',
  'Batch {w} writes per {w}; the {adj} {w} cannot take one {w} call per {w}',
  'Use the {adj} {w} helper for {w} dates; hand-written {w} parsing broke the {w} twice',
  'Convention: {w} names are {adj}, {w} names are plural, and {w} ids never leak into the {w}',
  'Style: {adj} early returns in {w} handlers, no {adj} {w} nesting beyond the {w}',
  'The {team} on-call rotation handles {w} {w} alerts; page them before touching the {adj} {w}',
  'Security review is required for {adj} {w} changes touching the {w} or the {w} {w}',
];
// Appended to every generated line so two lines never differ by a word or two only.
const CLAUSES = [
  '(agreed with {team} after the {adj} {w} {w} review)',
  '— see the {adj} {w} runbook for the {w} {w} details',
  'and keep the {w} and the {w} {w} in sync',
  '(the {team} team found this while reviewing the {adj} {w})',
  'while the {w} {w} {verb} the rest of the {adj} {w}',
  'which matters for the {adj} {w} and the {w} {w}',
  '(this also covers the {w} {w} and {adj} {w} paths)',
  '— {team} owns the {adj} {w} {w} checklist',
  'or else the {adj} {w} {verb} stale {w} {w}',
  'for both the {adj} {w} and the {adj} {w}',
];
const EPHEMERAL = [
  'Currently working on issue #{n}: the {w} {w} migration is half done, finish it next session',
  'Right now the {adj} {w} {w} refactor is WIP, do not rely on the {w} yet',
  'User seemed frustrated with the slow {adj} {w} tests today',
  "Tried raising the {w} {w} timeout to {n} ms, it didn't work because the {w} mock never resolves",
  'I think the {w} API rate limit is probably {n} per minute, not sure about the {w} tier',
  'This session: fixed the {w} {w} typo, still need to push the {w} branch',
  'Yesterday the {adj} {w} build broke after the {w} {w} change; reverted it for now',
  'TODO for today: finish wiring the {adj} {w} into the {w} {w}',
];
const ISSUES = [
  'The {w} {w} export format was agreed in #{n} and documented for the {team} team',
  'See #{n} for why the {adj} {w} {verb} the {w} {w}',
];
const COUNTS = [
  'The monorepo has {count} workspace packages under `packages/`, each with its own {adj} {w} and {w} {w} setup',
  'There are {count} workspace packages in `packages/` ({adj} {w} and {w} {w} included)',
  'All {count} workspace packages under `packages/` share the {adj} {w} config for {w} {w}',
];

function fill(rng, tpl, extra = {}) {
  return tpl.replace(/\{(\w+)\}/g, (_, k) => {
    if (k in extra) return extra[k];
    if (k === 'w') return rng.pick(WORDS);
    if (k === 'adj') return rng.pick(ADJECTIVES);
    if (k === 'verb') return rng.pick(VERBS);
    if (k === 'team') return rng.pick(TEAMS);
    if (k === 'n') return String(rng.range(10, 4999));
    return k;
  });
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * @param {object} meta repository meta from generateRepo
 * @param {number} n number of entries (approximately: index lines + topic files + bullets)
 * @param {number} seed
 * @returns {{ files: Array<{path: string, text: string}>, answers: object }}
 */
export function generateMemory(meta, n, seed) {
  const rng = new Rng(seed * 31 + n);
  const fate = makeFate(meta);
  const topics = Math.round(n * 0.3);
  const bullets = n - 2 * topics;
  const items = bullets + topics;

  // pools with known fates
  const renamed = meta.renameEvents.map((e) => e.from).filter((p) => fate(p).status === 'renamed');
  const deleted = meta.deleted.map((d) => d.path).filter((p) => fate(p).status === 'deleted');
  const liveDirs = new Set(meta.dirsAtHead);
  const dirRenames = meta.dirMoves.filter((m) => liveDirs.has(m.to));
  const removedScripts = meta.scripts.events.filter((e) => e.type === 'removed' && !meta.scripts.head.includes(e.name)).map((e) => e.name);
  const headDeps = new Set(meta.deps.head);
  const removedPkgs = meta.deps.events.filter((e) => e.type === 'removed' && !headDeps.has(e.name)).map((e) => e.name);
  const swaps = meta.deps.events.filter((e) => e.type === 'swapped' && !headDeps.has(e.name) && headDeps.has(e.successor));

  // how many of each category
  const counts = {};
  let used = 0;
  for (const [k, w] of Object.entries(WEIGHTS)) {
    let c = Math.round(items * w);
    if (MIN3.has(k)) c = Math.max(3, c);
    counts[k] = c;
    used += c;
  }
  if (!dirRenames.length) counts.renamedDir = 0;
  if (!swaps.length) counts.swappedPackage = 0;
  if (!removedPkgs.length) counts.removedPackage = 0;
  if (!removedScripts.length) counts.removedScript = 0;
  counts.filler = Math.max(0, items - Object.values(counts).reduce((a, b) => a + b, 0));

  const clause = () => fill(rng, rng.pick(CLAUSES));
  /** @type {Array<object>} */
  const list = [];
  const mk = (cat, text, extra = {}) => list.push({ cat, text, ...extra });
  const pathItem = (cat, path, exp) => {
    const text = `${fill(rng, rng.pick(PATH_LEADS))} \`${path}\` ${fill(rng, rng.pick(TAILS))} ${clause()}.`;
    mk(cat, text, { ref: path, ...exp });
  };
  for (let i = 0; i < counts.validPath; i++) pathItem('validPath', rng.pick(meta.livePaths), { negative: 'path' });
  for (let i = 0; i < counts.renamedPath; i++) {
    const p = rng.pick(renamed);
    pathItem('renamedPath', p, { kind: 'path-renamed', now: fate(p).successor });
  }
  for (let i = 0; i < counts.deletedPath; i++) pathItem('deletedPath', rng.pick(deleted), { kind: 'path-missing' });
  for (let i = 0; i < counts.renamedDir; i++) {
    const m = rng.pick(dirRenames);
    pathItem('renamedDir', `${m.from}/`, { kind: 'path-renamed', now: `${m.to}/`, dir: true });
  }
  const scriptItem = (cat, s, exp) => {
    const cmd = `\`npm run ${s}\``;
    mk(cat, `${cap(fill(rng, rng.pick(SCRIPT_LEADS), { cmd }))} ${clause()}.`, { ref: `npm run ${s}`, ...exp });
  };
  for (let i = 0; i < counts.validScript; i++) scriptItem('validScript', rng.pick(meta.scripts.head), { negative: 'script' });
  for (let i = 0; i < counts.removedScript; i++) scriptItem('removedScript', rng.pick(removedScripts), { kind: 'script-missing' });
  const pkgItem = (cat, p, exp) => mk(cat, `${fill(rng, rng.pick(PKG_LEADS), { pkg: p })} ${clause()}.`, { ref: p, ...exp });
  for (let i = 0; i < counts.validPackage; i++) pkgItem('validPackage', rng.pick(meta.deps.head), { negative: 'package' });
  for (let i = 0; i < counts.removedPackage; i++) pkgItem('removedPackage', rng.pick(removedPkgs), { kind: 'package-missing' });
  for (let i = 0; i < counts.swappedPackage; i++) {
    const s = rng.pick(swaps);
    pkgItem('swappedPackage', s.name, { kind: 'package-renamed', now: s.successor });
  }
  const ws = meta.workspaces.length;
  for (let i = 0; i < counts.countTrue; i++) mk('countTrue', `${fill(rng, rng.pick(COUNTS), { count: String(ws) })} ${clause()}.`, { ref: `${ws} workspace packages`, negative: 'count' });
  for (let i = 0; i < counts.countFalse; i++) {
    const wrong = ws + rng.range(2, 9);
    mk('countFalse', `${fill(rng, rng.pick(COUNTS), { count: String(wrong) })} ${clause()}.`, { ref: `${wrong} workspace packages`, kind: 'count-drift', now: String(ws) });
  }
  for (let i = 0; i < counts.issue; i++) mk('issue', `${fill(rng, rng.pick(ISSUES))} ${clause()}.`);
  for (let i = 0; i < counts.ephemeral; i++) mk('ephemeral', `${fill(rng, rng.pick(EPHEMERAL))} ${clause()}.`, { kind: 'ephemeral' });
  for (let i = 0; i < counts.filler; i++) mk('filler', `${fill(rng, rng.pick(FILLER))} ${clause()}.`);
  for (let i = 0; i < counts.duplicate; i++) mk('duplicate', '');
  rng.shuffle(list);

  // Duplicates live in CLAUDE.md, next to their originals there; everything else may go anywhere.
  const dups = list.filter((x) => x.cat === 'duplicate');
  const rest = list.filter((x) => x.cat !== 'duplicate');
  const claudeItems = rest.slice(0, Math.max(0, bullets - dups.length));
  const topicItems = rest.slice(claudeItems.length);
  const originals = claudeItems.filter((x) => x.cat === 'filler' || x.cat === 'validPath');
  for (const d of dups) {
    const o = originals[rng.int(originals.length)];
    if (!o) continue;
    d.of = o;
    d.text = variant(rng, o.text);
    if (o.negative) {
      d.ref = o.ref;
      d.negative = o.negative;
    }
    claudeItems.splice(rng.int(claudeItems.length + 1), 0, d);
  }

  // ------------------------------------------------------------- CLAUDE.md
  const expected = [];
  const negatives = [];
  const ephemeral = [];
  const groups = new Map(); // original item -> [locations]
  const record = (it, file, line) => {
    it.loc = { file, line };
    if (it.kind === 'ephemeral') ephemeral.push({ file, line });
    else if (it.kind) expected.push({ file, line, ref: it.ref, kind: it.kind, ...(it.now ? { now: it.now } : {}) });
    if (it.negative) negatives.push({ file, line, ref: it.ref, kind: it.negative });
  };
  const cl = ['# Project memory', ''];
  let inSection = 0;
  for (const it of claudeItems) {
    if (inSection % 50 === 0) {
      if (inSection) cl.push('');
      cl.push(`## ${cap(rng.pick(ADJECTIVES))} ${rng.pick(WORDS)} notes ${inSection / 50 + 1}`, '');
    }
    inSection++;
    cl.push(`- ${it.text}`);
    record(it, 'CLAUDE.md', cl.length);
  }
  cl.push('');
  for (const d of dups) {
    if (!d.of) continue;
    const key = d.of;
    if (!groups.has(key)) groups.set(key, [key.loc]);
    groups.get(key).push(d.loc);
  }

  // ------------------------------------------------------------- auto memory
  const files = [];
  const index = ['# Memory index', ''];
  const slugs = new Set();
  topicItems.forEach((it, i) => {
    let slug;
    do slug = `${rng.pick(WORDS)}-${rng.pick(WORDS)}-${i + 1}`;
    while (slugs.has(slug));
    slugs.add(slug);
    const type = it.kind === 'ephemeral' ? 'project' : it.cat === 'filler' ? rng.pick(['feedback', 'project', 'user', 'project']) : rng.pick(['project', 'reference']);
    const description = `${cap(rng.pick(ADJECTIVES))} ${rng.pick(WORDS)} and ${rng.pick(WORDS)} ${rng.pick(['notes', 'facts', 'details', 'pointers'])}`;
    const path = `.claude/memory/${slug}.md`;
    const text = `---\nname: ${slug}\ndescription: ${description}\ntype: ${type}\n---\n\n${it.text}\n`;
    files.push({ path, text });
    record(it, path, 7);
    const title = slug.replace(/-\d+$/, '').split('-').map(cap).join(' ');
    index.push(`- [${title}](${slug}.md) — ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(['overview', 'gotchas', 'reference', 'summary'])}`);
  });
  index.push('');
  files.unshift({ path: '.claude/memory/MEMORY.md', text: index.join('\n') });
  files.unshift({ path: 'CLAUDE.md', text: cl.join('\n') });

  const entries = claudeItems.length + topicItems.length * 2;
  return {
    files,
    answers: {
      memVersion: MEM_VERSION,
      set: n,
      seed,
      entries,
      counts,
      expected,
      negatives,
      duplicates: [...groups.values()],
      ephemeral,
    },
  };
}

/** Same content after normalising case, whitespace and markdown emphasis. */
function variant(rng, text) {
  const words = text.split(' ');
  const r = rng.int(3);
  if (r === 0) return outsideCode(text, (t) => t.toLowerCase()); // case only, never inside code spans
  if (r === 1) {
    const i = 1 + rng.int(Math.max(1, words.length - 2));
    return [...words.slice(0, i), '', ...words.slice(i)].join(' ').replace(/^(\S)/, (c) => c.toLowerCase()); // double space + case
  }
  // bold one plain word
  const plain = words.map((w, i) => (/^[a-z]{4,}$/.test(w) ? i : -1)).filter((i) => i >= 0);
  if (!plain.length) return `${text} `;
  const i = plain[rng.int(plain.length)];
  return words.map((w, j) => (j === i ? `**${w}**` : w)).join(' ');
}

function outsideCode(text, f) {
  return text.split(/(`[^`]*`)/).map((part) => (part.startsWith('`') ? part : f(part))).join('');
}
