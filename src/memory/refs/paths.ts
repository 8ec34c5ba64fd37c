// Deciding whether a token is a repository path, and normalising it.

/** File extensions that make a bare name (no slash) a file reference. */
export const FILE_EXTENSIONS = new Set(
  (
    'md mdx markdown txt rst adoc ts tsx mts cts js jsx mjs cjs json jsonc json5 yml yaml toml ini cfg conf ' +
    'env lock sh bash zsh fish ps1 bat cmd py pyi ipynb rb go rs java kt kts scala swift m mm c h cc cpp hpp cs fs ' +
    'php pl lua r dart ex exs erl hs clj elm vue svelte astro html htm css scss sass less sql graphql gql proto ' +
    'xml svg png jpg jpeg gif webp ico pdf csv tsv mk dockerfile tf hcl nix gradle properties plist ' +
    'mdc jsonl ndjson wasm zig vim el txt log example sample tpl tmpl j2 jinja njk hbs ejs pug prisma ' +
    // Build, packaging and docs files named at a project's root (`MANIFEST.in`, `requirements.in`,
    // `build.sbt`, `MODULE.bazel`, `defs.bzl`, `TESTING.asciidoc`) and template / source types.
    // Never English words nor domain endings (`.in` alone is no file: see the lone-extension rule).
    'asciidoc in sbt bzl bazel bzlmod groovy templ gotmpl cmake gemspec podspec cabal csproj fsproj vbproj sln ' +
    'tfvars jsonnet libsonnet cue rego erb haml twig liquid tex bib rmd qmd jl nim mli sol cxx hxx hh cu gleam ' +
    // .NET build files named bare (`Directory.Build.props`, `Directory.Packages.props`,
    // `Directory.Build.targets`, the XML solution `Acme.slnx`) and Xcode's own files (test plans,
    // build settings, entitlements, schemes, interface files): project files memory names by their
    // name alone, as it does `Acme.sln`. None is an English word (`this.props` resolves nowhere and
    // stays silent, as any bare name that never was a file does).
    'props targets slnx xctestplan xcconfig entitlements xcscheme xcworkspacedata pbxproj storyboard xib'
  ).split(/\s+/),
);

/** Names without an extension that are still clearly files. */
export const EXTENSIONLESS_FILES = new Set([
  'Makefile', 'makefile', 'GNUmakefile', 'justfile', 'Justfile', 'Dockerfile', 'Caddyfile', 'Procfile', 'Gemfile',
  'Rakefile', 'Brewfile', 'Vagrantfile', 'Jenkinsfile', 'Taskfile', 'LICENSE', 'CODEOWNERS', 'OWNERS',
  '.gitignore', '.gitattributes', '.npmrc', '.nvmrc', '.node-version', '.python-version', '.editorconfig',
  '.prettierrc', '.eslintrc', '.env', '.envrc', '.dockerignore', '.cursorrules', '.tool-versions', 'go.mod', 'go.sum',
  // Build and packaging files of other ecosystems (pipenv, CocoaPods, Carthage, Bazel, SCons,
  // Earthly, Tilt, Snakemake, Berkshelf, Guard, Danger, fastlane) and the Gradle / Maven wrappers.
  'Pipfile', 'Podfile', 'Cartfile', 'Containerfile', 'Earthfile', 'Tiltfile', 'Snakefile', 'SConstruct', 'SConscript',
  'Berksfile', 'Guardfile', 'Dangerfile', 'Fastfile', 'gradlew', 'mvnw', 'COPYING',
]);

/**
 * Extensionless names that are files in code and links (Bazel's `WORKSPACE`) but also an
 * ordinary identifier (Jenkins' `WORKSPACE` variable): read as paths outside prose, and weak
 * when bare, so only a history that renamed or deleted such a file makes them stale.
 */
const AMBIGUOUS_FILES = new Set(['WORKSPACE']);

/**
 * A well-known extensionless file name with a variant suffix (`Procfile.dev`, `Dockerfile.prod`,
 * `Gemfile.next`, `Makefile.local`): the suffix names a variant, not a file type, so the
 * extension rule misses it; the name before the first dot makes it a file. Read so only in code,
 * links and imports (a prose word stays a word).
 */
const VARIANT_FILE = /^(?:Procfile|Dockerfile|Containerfile|Gemfile|Makefile|Vagrantfile|Jenkinsfile|Brewfile)(?:\.[A-Za-z0-9_-]+)+$/;

const PLACEHOLDER_SEGMENT =
  /^(?:path|to|foo|bar|baz|qux|xxx+|yyy+|zzz+|some|your|my|example|examples?-\w+|\.\.\.|…|<.*>|\{.*\}|\[.*\]|\$.*|%.*%|your[-_].*|my[-_](?:app|project|repo|package|file|dir|folder|module|lib|component|service)s?|some[-_].*|<.*|.*>|.*\{.*|.*\}.*|n\/a)$/i;

const NOT_PATHS = new Set(
  [
    'and/or', 'i/o', 'n/a', 'w/', 'w/o', 'c/o', 'a/b', 'tcp/ip', 'ci/cd', 'read/write', 'input/output', 'true/false',
    'yes/no', 'on/off', 'client/server', 'request/response', 'pass/fail', 'win/loss', 'owner/repo', 'user/repo',
    'org/repo', 'owner/name', 'org/name', 'user/name', 'foo/bar', 'either/or', 'he/him', 'she/her', 'they/them',
    'start/end', 'get/set', 'add/remove', 'create/update', 'open/close', 'enable/disable', 'before/after',
    'left/right', 'up/down', 'old/new', 'src/dest', 'dev/prod', 'x/y', 'km/h', 'req/s', 'ops/s', 'b/s', 'kb/s',
    'mb/s', 'gb/s', 'ms/op', 'tokens/s', 'q&a',
  ],
);

const MIME_TOP = new Set(['application', 'text', 'image', 'audio', 'video', 'multipart', 'font', 'model', 'message']);
const DOMAIN =
  /^(?:[a-z0-9-]+\.)+(?:com|org|net|io|ai|dev|app|co|sh|so|me|gg|xyz|info|edu|gov|us|uk|de|jp|cn|ly|to|tv|cc|cloud|run|page|site|tech|rs|js|pages|vercel|github|gitlab|npmjs|pypi)$/i;
const SYSTEM_ROOTS = new Set([
  'usr', 'etc', 'var', 'tmp', 'opt', 'bin', 'sbin', 'dev', 'proc', 'sys', 'home', 'users', 'root', 'lib', 'lib64',
  'mnt', 'media', 'private', 'system', 'library', 'applications', 'volumes', 'workspace', 'workspaces', 'srv', 'run',
  'nix', 'snap', 'cygdrive', 'data', 'app', 'code', 'repo', 'github', 'runner',
]);

export interface PathToken {
  /** Normalised repository path (no ./, no trailing slash, no leading / or @). */
  value: string;
  /** How the path is anchored. */
  anchor: 'plain' | 'dot' | 'parent' | 'root';
  dir: boolean;
  glob: boolean;
  /** Strong shape: has a slash and an extension or a trailing slash, or is a known file name. */
  strong: boolean;
}

const GLOB_CHARS = /[*?[\]{}]/;
/** The rest parameter of a catch-all route folder: `[...slug]`, `[[...opt]]`. */
const ROUTE_REST = /(?:^|\/)\[{1,2}\.\.\.[\w-]+\]{1,2}(?=\/|$)/g;
/** A route group folder, one parenthesised name as the whole segment: `(marketing)`, `(auth)`. */
const ROUTE_GROUP = /^\([\w.@+-]+\)$/;
/** The characters of one path segment: letters, marks and digits of any script, `_`, and `@.+-*?[]{},=!%~`. */
const SEGMENT = /^[\p{L}\p{M}\p{N}_@.+\-*?[\]{},=!%~]+$/u;

/**
 * A pytest node id: a `.py` file, then `::` and one or more identifiers (`::TestLoader::test_reads_csv`),
 * then optionally a parametrisation id in brackets (`[csv-utf8]`, `[1-2]`; with spaces only where the
 * writing keeps it one token: a quoted command argument, `"t/x.py::test_y[a b]"`). Only after `.py`:
 * `::` after anything else is a language's scope operator (C++ `std::vector`, Rust `crate::mod`,
 * Ruby `Foo::Bar`), never a file.
 */
const PYTEST_NODE_ID = /\.py((?:::[\p{L}_][\p{L}\p{N}_]*)+(?:\[[^\r\n]*\])?)$/u;

/**
 * The file part of a pytest node id (`tests/test_x.py` of `tests/test_x.py::TestX::test_y[p]`),
 * or `tok` itself when it is no node id. The node id names a test inside that file: the file is
 * the path reference (its raw text, value and range), and the `::…` suffix stays outside it, so
 * a correction rewrites the file and keeps the test's name as written.
 */
export function pytestNodePath(tok: string): string {
  if (tok.length < 6 || !tok.includes('.py::')) return tok;
  const m = PYTEST_NODE_ID.exec(tok);
  return m ? tok.slice(0, tok.length - m[1]!.length) : tok;
}

/** Strips punctuation that surrounds a token in prose. Returns [leadTrim, token]. */
export function trimToken(tok: string): [number, string] {
  let s = 0;
  let e = tok.length;
  // Emphasis markers only when they wrap the token (`_types.ts` keeps its underscore).
  for (;;) {
    const a = tok.charCodeAt(s);
    if (!(s < e - 1 && (a === 42 || a === 95) && tok.charCodeAt(e - 1) === a)) break; // * _
    s++;
    e--;
  }
  // Leading ( " ' “ ‘ * , ;
  for (;;) {
    if (s >= e) break;
    const a = tok.charCodeAt(s);
    if (!(a === 40 || a === 34 || a === 39 || a === 0x201c || a === 0x2018 || a === 42 || a === 44 || a === 59)) break;
    s++;
  }
  // Trailing ) " ' ” ’ * , ; : ! ? . …
  while (e > s) {
    const z = tok.charCodeAt(e - 1);
    if (!(z === 41 || z === 34 || z === 39 || z === 0x201d || z === 0x2019 || z === 42 || z === 44 || z === 59 || z === 58 || z === 33 || z === 63 || z === 46 || z === 0x2026)) break;
    // Keep a trailing dot only when it ends a name like `..`.
    if (z === 46 && e - s <= 2) break;
    e--;
  }
  // `src/a.ts:42`, `src/a.ts:42:7`: the line number is not part of the path.
  const last = tok.charCodeAt(e - 1);
  if (e > s && last >= 48 && last <= 57) {
    const lineNo = /:\d+(?::\d+)?$/.exec(tok.slice(s, e));
    if (lineNo) e -= lineNo[0].length;
  }
  // `tests/test_x.py::TestX::test_y[p]`: a pytest node id names a test in the file; the file is the path.
  if (e - s > 5 && tok.includes('.py::')) e = s + pytestNodePath(tok.slice(s, e)).length;
  // Unbalanced closing bracket/paren inside.
  let t = tok.slice(s, e);
  if (t.endsWith(')') && !t.includes('(')) t = t.slice(0, -1);
  if (t.endsWith(']') && !t.includes('[')) t = t.slice(0, -1);
  return [s, t];
}

function extOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return '';
  return base.slice(dot + 1).toLowerCase();
}

// Characters some check below needs, as bits of one pass over the token: a check whose
// characters are absent is skipped (it cannot match).
const F_COLON = 1; // :
const F_BACKSLASH = 2; // \\
const F_BAD = 4; // whitespace < > | " ' ` ^
const F_DOLLAR_BRACE = 8; // $ {
const F_DOT = 16; // . (and …)
const F_HASH_Q = 32; // # ?
const F_GLOB = 64; // * ? [ ] { }
const F_DIGIT = 128; // 0-9
const F_OTHER = 256; // outside [\w@.+\-*?[\]{},=!%~/]
const F_NON_ASCII = 512;
const F_SLASH_AMP = 1024; // / & (every entry of NOT_PATHS holds one)
const FLAGS = new Uint16Array(128);
for (let ch = 0; ch < 128; ch++) {
  const c = String.fromCharCode(ch);
  let f = 0;
  if (c === ':') f |= F_COLON;
  if (c === '/' || c === '&') f |= F_SLASH_AMP;
  if (c === '\\') f |= F_BACKSLASH;
  if (/[\s<>|"'`^]/.test(c)) f |= F_BAD;
  if (c === '$' || c === '{') f |= F_DOLLAR_BRACE;
  if (c === '.') f |= F_DOT;
  if (c === '#' || c === '?') f |= F_HASH_Q;
  if (/[*?[\]{}]/.test(c)) f |= F_GLOB;
  if (/\d/.test(c)) f |= F_DIGIT;
  if (!/[\w@.+\-*?[\]{},=!%~/]/.test(c)) f |= F_OTHER;
  FLAGS[ch] = f;
}

function flagsOf(t: string): number {
  let f = 0;
  for (let i = 0; i < t.length; i++) {
    const ch = t.charCodeAt(i);
    f |= ch < 128 ? FLAGS[ch] : F_NON_ASCII | F_OTHER | F_BAD | F_DOT; // (BAD, DOT: let the exact checks decide)
  }
  return f;
}

/** `v.split('/')`, without the runtime call a string split makes (hot: every path token). */
function splitSlash(v: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = v.indexOf('/'); i !== -1; i = v.indexOf('/', from)) {
    out.push(v.slice(from, i));
    from = i + 1;
  }
  out.push(from === 0 ? v : v.slice(from));
  return out;
}

/** Longest entry of NOT_PATHS (a longer ASCII token is not one). */
const NOT_PATHS_MAX = Math.max(...[...NOT_PATHS].map((x) => x.length));

/**
 * False when PLACEHOLDER_SEGMENT cannot match `seg`, a non-empty segment with no `/`, no
 * whitespace, no brace and no `>` (the alternatives `.*\{.*`, `.*\}.*`, `.*>` cannot match it: asPath
 * asks only for those), by its first character and length.
 */
function mayBePlaceholder(seg: string): boolean {
  const n = seg.length;
  const c = lowerAscii(seg.charCodeAt(0));
  const c1 = n > 1 ? lowerAscii(seg.charCodeAt(1)) : 0; // the second letter of the words below
  switch (c) {
    case 112: // p: path
      return n === 4 && c1 === 97;
    case 116: // t: to
      return n === 2 && c1 === 111;
    case 102: // f: foo
      return n === 3 && c1 === 111;
    case 98: // b: bar baz
      return n === 3 && c1 === 97;
    case 113: // q: qux
      return n === 3 && c1 === 117;
    case 120: // x: xxx+
    case 122: // z: zzz+
      return n >= 3 && c1 === c;
    case 121: // y: yyy+ your your[-_].*
      return n >= 3 && (c1 === 121 || c1 === 111);
    case 115: // s: some some[-_].*
      return n >= 4 && c1 === 111;
    case 109: // m: my my[-_](app|...)s?
      return (n === 2 || n >= 6) && c1 === 121;
    case 101: // e: example examples?-\w+
      return (n === 7 || n >= 9) && c1 === 120;
    case 46: // ...
      return n === 3;
    case 0x2026: // …
      return n === 1;
    case 60: // <.*>  <.*
    case 91: // \[.*\]
    case 36: // \$.*
      return true;
    case 37: // %.*%
      return n >= 2;
    default:
      return false;
  }
}

/** An ASCII upper-case letter's lower case; any other code as it is (the `i` flag without `u` folds no other character to ASCII). */
function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** `/^[\d.,:x%-]*$/i` cannot match a string starting with this character. */
function outsideNumberClass(c: number): boolean {
  return !((c >= 48 && c <= 57) || c === 46 || c === 44 || c === 58 || c === 120 || c === 88 || c === 37 || c === 45);
}

/**
 * Classifies one token as a repository path. `ctx` says where it was written: prose
 * tokens need a stronger shape than inline code.
 */
export function asPath(tokenIn: string, ctx: 'prose' | 'code' | 'link' | 'import'): PathToken | null {
  let t = tokenIn;
  if (!t || t.length > 300) return null;
  let f = flagsOf(t);
  if (f & F_COLON) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(t) && !/^[a-z]:[\\/]/i.test(t)) return null; // scheme: URL, mailto:, npm:, C: handled below
    if (/^[a-z]:[\\/]/i.test(t)) return null; // Windows paths
  }
  if (f & F_BACKSLASH) return null;
  const c0 = t.charCodeAt(0);
  if (c0 === 126 /* ~ */ || c0 === 36 /* $ */ || c0 === 37 /* % */) return null; // home and variables
  if (t.startsWith('//')) return null;
  if (f & F_BAD && /[\s<>|"'`^]/.test(t)) return null;
  if (f & F_DOLLAR_BRACE && /\$\{|\$[A-Z_]|\{\{/.test(t)) return null;
  // (`[...slug]`, `[[...opt]]`: a catch-all route folder of Next.js / SvelteKit / Nuxt, no ellipsis.)
  if (f & F_DOT && (t.includes('...') || t.includes('…')) && (t.includes('…') || t.replace(ROUTE_REST, '').includes('...'))) return null;
  if (c0 === 45 /* - */) return null;
  if (f & F_HASH_Q) {
    if (/[#?].*$/.test(t) && ctx === 'link') {
      t = t.replace(/[#?].*$/, '');
      f = flagsOf(t);
    }
    if (t.includes('#')) return null;
  }
  // (Lower-casing never makes a `/` or `&`: a token without one is in no case in NOT_PATHS.)
  if (f & F_SLASH_AMP && (f & F_NON_ASCII || t.length <= NOT_PATHS_MAX + 1)) {
    const lower = t.toLowerCase();
    if (NOT_PATHS.has(lower.endsWith('/') ? lower.slice(0, -1) : lower) || NOT_PATHS.has(lower)) return null;
  }

  let anchor: PathToken['anchor'] = 'plain';
  let v = t;
  if (v.startsWith('/')) {
    anchor = 'root';
    v = v.replace(/^\/+/, '');
    const first = v.split('/')[0].toLowerCase();
    if (SYSTEM_ROOTS.has(first)) return null;
    // `/clone`, `/help`: slash commands, routes.
    if (!v.includes('/') && !extOf(v) && !v.startsWith('.')) return null;
  } else if (v.startsWith('./')) {
    anchor = 'dot';
    v = v.replace(/^(\.\/)+/, '');
  } else if (v.startsWith('../')) {
    anchor = 'parent';
  }
  const dir = v.endsWith('/');
  if (dir) v = v.replace(/\/+$/, '');
  if (!v || v === '.' || v === '..') return null;
  if (v.includes('//')) return null;
  const segs = splitSlash(v);
  const glob = (f & F_GLOB) !== 0 && GLOB_CHARS.test(v);
  if (glob && /[{}]/.test(v) && !/\{[^{}]*,[^{}]*\}/.test(v)) return null; // {platform} template
  // Every character of v allowed in a segment: only empty segments fail the class test.
  const plainChars = (f & F_OTHER) === 0;
  for (const s of segs) {
    if (s === '..' || s === '.') continue;
    // `(marketing)`: a route group folder (Next.js, SvelteKit); whether it is one is the path check's question.
    if (!plainChars && s.length > 2 && s.charCodeAt(0) === 40 && ROUTE_GROUP.test(s)) continue;
    // (Not a glob: no brace in it; no `>` either, or the F_BAD test above returned.)
    if (!glob && s.length > 0 && mayBePlaceholder(s) && PLACEHOLDER_SEGMENT.test(s)) return null;
    // Letters of any script count (`docs/café.md`, `docs/数据字典.md`): Unicode letters, marks, digits.
    if (plainChars ? s.length === 0 : !SEGMENT.test(s)) return null;
  }
  if (segs.length >= 2 && (segs[0].length === 4 || f & F_NON_ASCII) && segs[0].toLowerCase() === 'path' && segs[1].toLowerCase() === 'to') return null;
  const first = segs[0];
  const variantFile = (name: string) => ctx !== 'prose' && name.length > 8 && VARIANT_FILE.test(name);
  if (anchor === 'plain' && first.includes('.') && DOMAIN.test(first) && segs.length >= 1 && !EXTENSIONLESS_FILES.has(first) && !variantFile(first)) {
    if (segs.length > 1 || !FILE_EXTENSIONS.has(extOf(first))) return null;
  }
  if (segs.length === 2 && MIME_TOP.has(first.toLowerCase()) && !dir) return null;
  // Numbers: fractions, dates, ratios, versions.
  if (!(first.length > 0 && outsideNumberClass(first.charCodeAt(0))) && segs.every((s) => /^[\d.,:x%-]*$/i.test(s))) return null;
  // (Every segment first: it fails on the first long one, `tests/` of `tests/x-1/y-2.ts`.)
  if (f & F_DIGIT && segs.length <= 3 && segs.every((s) => s.length <= 4 && (/^\d{1,4}$/.test(s) || /^[a-z]{3}$/i.test(s))) && segs.some((s) => /^\d+$/.test(s)))
    return null;
  const ext = extOf(v);
  const last = segs[segs.length - 1];
  const hasSlash = segs.length > 1;
  const ambiguous = ctx !== 'prose' && ext === '' && AMBIGUOUS_FILES.has(last);
  const knownFile = EXTENSIONLESS_FILES.has(last) || (ext !== '' && FILE_EXTENSIONS.has(ext)) || (ext !== '' && variantFile(last)) || ambiguous;
  if (!hasSlash) {
    // Bare names: a known file name, or a directory written with a trailing slash.
    if (ext && /^\d/.test(ext)) return null; // 1.2.3, file.1
    if (knownFile) {
      // `.ts` alone is an extension, not a file.
      if (/^\.[a-z0-9]+$/i.test(last) && FILE_EXTENSIONS.has(last.slice(1).toLowerCase()) && !EXTENSIONLESS_FILES.has(last))
        return null;
    } else if (!dir && !(ctx === 'link' && anchor !== 'plain') && !(ctx === 'code' && anchor === 'plain' && dotfileName(last))) {
      return null;
    }
    if (anchor === 'root' && !dir && !knownFile) return null;
  } else {
    if (ctx === 'prose') {
      // `Slack/Telegram/GitHub`, `TypeScript/JavaScript`: words, not paths.
      // (Any script: `Größe/Gewicht` is two words as much as `Size/Weight`.)
      if (!knownFile && !dir && anchor === 'plain' && segs.every((s) => /^\p{Lu}[\p{L}\p{M}\p{N}_-]*$/u.test(s)) && !/^\./.test(first))
        return null;
      if (!knownFile && !dir && anchor === 'plain' && segs.every((s) => /^[\p{L}\p{M}]+$/u.test(s)) && segs.length >= 3 && !/^\./.test(first))
        return null; // fatal/error/warn
    }
    if (segs.some((s) => s === '')) return null;
  }
  if (glob && segs.every((s) => GLOB_CHARS.test(s))) return null;
  const strong = (hasSlash && (knownFile || dir || glob)) || (knownFile && !ambiguous && (ext !== '' || EXTENSIONLESS_FILES.has(last)));
  return { value: anchor === 'parent' ? v : v, anchor, dir, glob, strong };
}

/**
 * `.windsurfrules`, `.rspec`, `.clinerules`: a dot, then one name with no further dot, in code. A
 * weak path (the check reports it only when such a file was in history at the folder it resolves
 * to and is gone now; a method or modifier such as `.then` or `.only` never was a file). A lone
 * file extension (`.ts`, `.md`) is none.
 */
function dotfileName(name: string): boolean {
  return /^\.[A-Za-z_][\w-]*$/.test(name) && !FILE_EXTENSIONS.has(name.slice(1).toLowerCase());
}

const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)|\/\//;

/** Joins a base folder (may be '') and a relative path, resolving `.` and `..`. Null when it leaves the root. */
export function joinPath(base: string, rel: string): string | null {
  if (!DOT_SEGMENT.test(rel) && !DOT_SEGMENT.test(base) && !rel.startsWith('/') && !rel.endsWith('/') && !base.endsWith('/') && !base.startsWith('/')) {
    return base ? (rel ? `${base}/${rel}` : base) : rel;
  }
  const out: string[] = base ? base.split('/').filter(Boolean) : [];
  for (const s of rel.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(s);
  }
  return out.join('/');
}

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i === -1 ? '' : p.slice(0, i);
}

/**
 * A path with spaces in it, where the writing itself makes it one token: a whole inline code
 * span (`ctx` 'code': `docs/User Guide.md`), or a link target in angle brackets or
 * percent-encoded (`ctx` 'link': `<docs/User Guide.md>`, `docs/User%20Guide.md` decoded).
 * Prose with spaces must not become a path, so: single spaces inside segments only (never at a
 * segment's ends, never doubled, no tab); no word before the last one looks like a file name
 * (`src/a.ts and b.ts` is two paths) or an option (`-x`); in code the span also holds a `/`,
 * ends in a known file extension, and its first segment has no space (`see docs/x.md`,
 * `node scripts/x.mjs` are a word and a path). Otherwise the same shape rules as `asPath`.
 */
export function asSpacedPath(t: string, ctx: 'code' | 'link'): PathToken | null {
  if (!t.includes(' ') || t.length > 300 || /[\t\n\r\f\v\u00a0]| {2}|^ | $|\/ | \//.test(t)) return null;
  const words = t.split(' ');
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.startsWith('-')) return null;
    if (i < words.length - 1 && FILE_EXTENSIONS.has(extOf(w)) && /\.[^./]+$/.test(w)) return null;
  }
  if (ctx === 'code') {
    const slash = t.indexOf('/');
    if (slash === -1 || t.slice(0, slash).includes(' ')) return null;
    const ext = extOf(t);
    if (!ext || !FILE_EXTENSIONS.has(ext)) return null;
  }
  // Checked as written with each space read as `_` (a segment character), then given back its spaces.
  const u = t.replace(/ /g, '_');
  const p = asPath(u, ctx);
  if (!p) return null;
  const at = u.indexOf(p.value);
  if (at === -1) return null;
  return { ...p, value: t.slice(at, at + p.value.length) };
}

/**
 * The folder a memory file kept in a project's config folder belongs to: `apps/web` for
 * `apps/web/.cursor/rules/x.mdc`, `apps/web/.claude/CLAUDE.md`, `apps/web/.claude/rules/x.md`,
 * `apps/web/.github/copilot-instructions.md` (any depth below `.cursor/`, `.claude/`,
 * `.github/`; the innermost one). Cursor's nested rules and Claude Code in that project read
 * such a file from `apps/web`, so its relative paths are written from there. '' for the
 * repository root's own config folders, other files, and paths outside the repository.
 */
export function configOwnerDir(file: string): string {
  if (!file || file.startsWith('/') || /^[a-z]:[\\/]/i.test(file)) return '';
  const at = Math.max(file.lastIndexOf('/.cursor/'), file.lastIndexOf('/.claude/'), file.lastIndexOf('/.github/'));
  return at > 0 ? file.slice(0, at) : '';
}

// A comma-separated glob list (`src/a/**, lib/*.ts`), split only at commas outside braces:
// `src/**/*.{ts,tsx}` is one glob (Cursor writes brace lists in `globs:`).
export function splitGlobList(v: string): string[] {
  if (!v.includes('{')) return v.split(',');
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < v.length; i++) {
    const ch = v.charCodeAt(i);
    if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && depth > 0) depth--;
    else if (ch === 44 /* , */ && depth === 0) {
      out.push(v.slice(from, i));
      from = i + 1;
    }
  }
  out.push(v.slice(from));
  return out;
}

/**
 * A path with a line number after it as one inline code span (`tests/x.py:42`, `src/a.ts:42:7`):
 * the line is no part of the path (as `trimToken` drops it from prose words). The path part when
 * `tok` ends in `:<line>` or `:<line>:<column>` after a name with no other `:`; `tok` itself
 * otherwise. Whether the rest is a path is `asPath`'s to say (`localhost`, `redis` of
 * `localhost:3000`, `redis:7` are not).
 */
export function withoutLineSuffix(tok: string): string {
  const last = tok.charCodeAt(tok.length - 1);
  if (!(last >= 48 && last <= 57) || !tok.includes(':')) return tok;
  const m = /:\d+(?::\d+)?$/.exec(tok);
  if (!m) return tok;
  const rest = tok.slice(0, m.index);
  return rest && !rest.includes(':') ? rest : tok;
}

/** One Python identifier segment. */
const PY_IDENT = '[A-Za-z_][A-Za-z0-9_]*';
/**
 * A dotted Python name at the start of a word (quotes or an opening bracket before it skipped):
 * identifiers joined by dots (`celery._state.get_current_app`, `acme.tools.migrate`), ending the
 * word or followed by a call, a subscript, an entry point's `:func` (`acme.cli:main`) or closing
 * punctuation. Not followed by a path or option character (`/`, `-`, `@`, `<`): those are other
 * things (`a.b/c`, `x.y-z`).
 */
const PY_DOTTED = new RegExp(`^[("'\\[]*(${PY_IDENT}(?:\\.${PY_IDENT})+)(?=$|[(\\[:,;)"'\\]]|\\.$)`);

/**
 * The dotted Python name a word starts with (see PY_DOTTED) and its offset in the word; undefined
 * when the word holds none. Whether it names a module of the repository's own packages is the
 * path check's question (it needs the tree and history; see `pythonModuleFinding` in
 * checks/path.ts): here it is only a shape, so `os.path.join`, `np.linalg` and `self.x` match too.
 */
export function pythonDottedName(word: string): { name: string; at: number } | undefined {
  if (word.length < 3 || !word.includes('.')) return undefined;
  const m = PY_DOTTED.exec(word);
  if (!m) return undefined;
  const name = m[1]!;
  return { name, at: m[0].length - name.length };
}

/**
 * A Go package folder followed by one of its exported identifiers (`runtime/esutils/resolvers.SecretKeyRef`,
 * `pkg/util.New(ctx)`): the folder part (`runtime/esutils/resolvers`) when the word is a relative
 * path of two or more segments whose last segment ends in `.` and a capitalised identifier (with
 * a lower-case letter in it, or a call after it: `Makefile.PL` and `README.Md` are files), that
 * suffix is no known file extension, and the folder part is a path (`asPath`: no placeholder,
 * URL or domain: `k8s.io/api/core/v1.Pod` names a module, not a folder of the repository).
 */
export function goPackageOfIdent(word: string): string | undefined {
  const m = /^([A-Za-z0-9_][\w.-]*(?:\/[\w.-]+)+)\.([A-Z][A-Za-z0-9_]*)(\(|$|[,;:)\]])/.exec(word);
  if (!m) return undefined;
  const dir = m[1]!;
  const ident = m[2]!;
  if (m[3] !== '(' && !/[a-z]/.test(ident)) return undefined;
  if (FILE_EXTENSIONS.has(ident.toLowerCase()) || VARIANT_FILE.test(dir.slice(dir.lastIndexOf('/') + 1) + '.' + ident)) return undefined;
  const last = dir.slice(dir.lastIndexOf('/') + 1);
  if (FILE_EXTENSIONS.has(extOf(last))) return undefined; // `x/a.go.Tmpl`: a file's name, not a package
  const p = asPath(dir + '/', 'code');
  return p && p.anchor === 'plain' && !p.glob ? dir : undefined;
}

/** A segment that is a template placeholder: `<name>`, `{name}` (not a brace list `{a,b}`, which is a glob), alone or inside a name (`<name>.go`). */
const TEMPLATE_SEGMENT = /<[^<>/]+>|\{[^{},/]+\}/;

/**
 * The literal folder before the first placeholder segment of a templated path
 * (`pkg/register/` of `pkg/register/<name>.go`, `src/routes/` of `src/routes/{name}/index.ts`),
 * with its trailing `/`: the folder the template names members of, as real as any folder path
 * (the placeholder tail is kept by a correction). Undefined when one of the first two segments
 * is a placeholder, or the prefix is no plain relative folder path (`path/to/<x>`, `your-app/<x>`,
 * `~/x/<y>`, `$HOME/<x>`, a URL: `asPath` rejects those).
 */
export function templatedFolder(word: string): string | undefined {
  if (!word.includes('/') || !(word.includes('<') || word.includes('{'))) return undefined;
  const segs = word.split('/');
  let k = 0;
  while (k < segs.length && !TEMPLATE_SEGMENT.test(segs[k]!)) k++;
  // Two literal segments at least (`pkg/register/`): a lone top folder (`src/` of `src/{platform}-auth.ts`)
  // says little about where the template's files are, and a template is read as no path at all.
  if (k < 2 || k === segs.length) return undefined;
  const prefix = segs.slice(0, k).join('/') + '/';
  if (/[<>{}]/.test(prefix)) return undefined;
  const p = asPath(prefix, 'code');
  return p && p.anchor === 'plain' && p.dir && !p.glob ? prefix : undefined;
}
