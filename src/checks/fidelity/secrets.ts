// Synchronous secret detection: the secretlint recommended preset's rules, driven without the
// async engine (their `file(source)` handlers are synchronous for text), plus our own
// high-confidence patterns for what the preset does not cover (JWTs, Stripe and Google keys,
// AWS access key ids, URLs with passwords in any scheme, `password=` / `api_key=` with a
// high-entropy value, short PEM private key blocks).
//
// Only ranges and a rule name leave this module: never the matched value. The translator we
// hand to secretlint returns the message id only, so not even its messages carry the value.
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import { KeywordGate } from './keywords.js';

export interface SecretRange {
  start: number;
  end: number;
  /** Short kind, e.g. `github-token`, `aws-secret-key`, `jwt`, `url-password`. */
  rule: string;
}

interface MiniContext {
  sharedOptions: Record<string, unknown>;
  createTranslator(messages: Record<string, unknown>): (id: string, props?: unknown) => string;
  report(d: { message: unknown; range: readonly [number, number] }): void;
  ignore(d: unknown): void;
}
interface MiniRule {
  meta: { id: string };
  create(ctx: MiniContext, options: Record<string, unknown>): { file?(source: unknown): unknown };
}

/** secretlint rule id (without the package prefix) -> our short kind. */
const PRESET_KIND: Record<string, string> = {
  aws: 'aws-secret-key',
  gcp: 'gcp-key',
  npm: 'npm-token',
  slack: 'slack-token',
  basicauth: 'url-password',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  groq: 'groq-key',
  huggingface: 'huggingface-token',
  linear: 'linear-key',
  notion: 'notion-token',
  privatekey: 'private-key',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  github: 'github-token',
  gitlab: 'gitlab-token',
  grafana: 'grafana-token',
  '1password': '1password-token',
  'database-connection-string': 'url-password',
  'hashicorp-vault': 'vault-token',
  vercel: 'vercel-token',
  databricks: 'databricks-token',
  docker: 'docker-token',
  figma: 'figma-token',
};

/** A necessary condition on a text: a regular expression, or a test written like one. */
interface Gate {
  test(text: string): boolean;
}

/** The parts of the AWS rule's patterns: access key ids (upper case), secret keys and account ids assigned. */
const AWS_KEY_ID = /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA/;
const AWS_ASSIGNED = /secret_?access_?key|account_?(?:id)?["']?\s*[:=]/i;

/**
 * A necessary condition for each preset rule (secretlint rule id without the package prefix):
 * a literal every match of the rule's patterns contains (read from the rules' regular
 * expressions; case-insensitive where in doubt, so a gate only ever lets more through). A rule
 * whose gate does not match cannot report anything on the text and is not run. Rules without a
 * gate (a future preset version) run on any text that passes some gate (`ANY_GATE`).
 *
 * Each gate comes with its literals, lower case (the same condition, case-insensitive): one
 * scan of the text for all of them (fidelity/keywords.ts) tells which gates can match; only
 * those are tested.
 */
const PRESET_GATE: Record<string, [Gate, string[]]> = {
  aws: [
    // the key id prefixes are upper case (`canvas` holds no ANVA key), and an account id is
    // assigned: `account_id = 1234...` (`account` alone is a common word)
    { test: (text) => AWS_KEY_ID.test(text) || AWS_ASSIGNED.test(text) },
    ['secretaccesskey', 'secret_accesskey', 'secretaccess_key', 'secret_access_key', 'a3t', 'akia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'asia', 'account'],
  ],
  npm: [/npm_|_authToken|:\/\//i, ['npm_', '_authtoken', '://']],
  slack: [/xox[bpaor]-|xapp-|hooks\.slack\.com/i, ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxr-', 'xapp-', 'hooks.slack.com']],
  basicauth: [/:\/\//, ['://']],
  openai: [/sk-/, ['sk-']],
  anthropic: [/sk-ant-/, ['sk-ant-']],
  groq: [/gsk_/, ['gsk_']],
  huggingface: [/hf_/, ['hf_']],
  linear: [/lin_api_/, ['lin_api_']],
  notion: [/ntn_/, ['ntn_']],
  privatekey: [/-----BEGIN/, ['-----begin']],
  sendgrid: [/SG\./, ['sg.']],
  shopify: [/shp(?:pa|ca|at|ss)_/, ['shppa_', 'shpca_', 'shpat_', 'shpss_']],
  github: [/gh[pousr]_|github_pat_/, ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_']],
  gitlab: [/glpat-/, ['glpat-']],
  grafana: [/glc_|glsa_/, ['glc_', 'glsa_']],
  '1password': [/ops_/, ['ops_']],
  'database-connection-string': [/:\/\//, ['://']],
  'hashicorp-vault': [/hv[sbr]\./, ['hvs.', 'hvb.', 'hvr.']],
  vercel: [/vc[pikar]_/, ['vcp_', 'vci_', 'vck_', 'vca_', 'vcr_']],
  databricks: [/dapi/, ['dapi']],
  docker: [/dckr_pat_/, ['dckr_pat_']],
  figma: [/figd_/, ['figd_']],
};

let handlers: Array<{ kind: string; gate?: Gate; bit: number; file: (source: unknown) => unknown }> | undefined;
let sink: SecretRange[] = [];
let sinkText = '';

/** For `scheme://user:password@host` matches: false when the password is a placeholder. */
function urlPasswordIsReal(match: string): boolean {
  const m = /:\/\/([^\s:/@]*):([^\s@]*)@([^\s/:?#]*)/.exec(match);
  if (!m) return true;
  return realUrlPassword(m[1], m[2], m[3]);
}

/** Default local credentials (`postgres:postgres@localhost`) and placeholders are not secrets. */
const DEFAULT_PASSWORDS = /^(?:postgres|password|passwd|pass|root|admin|secret|example|changeme|dev|development|test|testing|local|guest|user|mysql|redis|default)$/i;
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|host\.docker\.internal|db|postgres|mysql|redis|mongo|database)$/i;
function realUrlPassword(user: string, pw: string, host: string): boolean {
  if (PLACEHOLDER.test(pw) || /^[$<{%*]|^x+$|^\*+$/i.test(pw) || /^(?:pass(?:word)?|pwd|secret)$/i.test(pw)) return false;
  if (pw === user || (DEFAULT_PASSWORDS.test(pw) && (LOCAL_HOST.test(host) || !host.includes('.')))) return false;
  // a local development database's password that says so (`arawn_dev_password@localhost`, as a
  // committed docker-compose file sets it up)
  if (LOCAL_HOST.test(host) && /(?:^|[-_])(?:dev|development|local|test|testing|example|docker)(?:[-_]|$)|(?:^|[-_])pass(?:word)?$/i.test(pw)) return false;
  return true;
}

function presetHandlers() {
  if (handlers) return handlers;
  handlers = [];
  for (const rule of presetRules as unknown as MiniRule[]) {
    const short = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
    if (short === 'filter-comments' || short === 'gcp') continue; // gcp only reads .p12 / .json files
    const kind = PRESET_KIND[short] ?? short;
    const urlRule = kind === 'url-password';
    const ctx: MiniContext = {
      sharedOptions: {},
      createTranslator: () => (id: string) => id,
      report: (d) => {
        const start = d.range[0];
        const end = d.range[1];
        if (urlRule && !urlPasswordIsReal(sinkText.slice(start, end))) return;
        sink.push({ start, end, rule: kind });
      },
      ignore: () => {},
    };
    try {
      const h = rule.create(ctx, {});
      const gate = PRESET_GATE[short];
      if (h.file) handlers.push({ kind, gate: gate?.[0], bit: gate ? GATES.bits[PRESET_BIT[short]] : 0, file: h.file.bind(h) });
    } catch {
      /* a rule that cannot be created synchronously is skipped; our own patterns remain */
    }
  }
  return handlers;
}

// ------------------------------------------------------------------ own patterns

const PLACEHOLDER =
  /^(?:x+|\*+|\.+|<[^>]*>|\{\{?[^}]*\}\}?|\$\{?[A-Za-z_][\w]*\}?|%[A-Za-z_]+%|(?:your|my|example|sample|dummy|fake|placeholder|changeme|change-me|replace[-_ ]?me|insert|enter|redacted)(?:[-_ .]?[\w-]{0,60})?|(?:the|some|test|secret|password|passwd|token|apikey|api[-_]key|none|null|undefined|todo|tbd)(?:[-_ ]?\w{0,12})?)$/i;

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s) return 0;
  const freq = new Map<string, number>();
  for (const ch of s) freq.set(ch, (freq.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of freq.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function looksLikeSecretValue(v: string): boolean {
  if (v.length < 12 || v.length > 200) return false;
  if (PLACEHOLDER.test(v) || /EXAMPLE/.test(v)) return false;
  if (/^(?:process\.env|os\.environ|env\.|ENV\[|secrets\.|vars\.)/i.test(v)) return false;
  if (/^[a-z]+(?:[-_][a-z]+)+$/.test(v)) return false; // a kebab / snake identifier, not a secret
  if (/^(?:https?:)?\/\//.test(v) || /^[./~]/.test(v)) return false; // a URL or path
  let classes = 0;
  if (/[a-z]/.test(v)) classes++;
  if (/[A-Z]/.test(v)) classes++;
  if (/[0-9]/.test(v)) classes++;
  if (/[^A-Za-z0-9]/.test(v)) classes++;
  if (classes < 2) return false;
  if (/(.)\1{5,}/.test(v) && entropy(v) < 3) return false;
  return entropy(v) >= 3.2;
}

interface OwnPattern {
  rule: string;
  re: RegExp;
  /** Which capture group is the value (0 = whole match). */
  group?: number;
  accept?: (value: string, m: RegExpExecArray) => boolean;
  /** A literal every match contains (a necessary condition, tested before the pattern runs). */
  gate: RegExp;
  /** The gate's literals, lower case (for the one scan of all gates). */
  literals: string[];
}

const OWN: OwnPattern[] = [
  { rule: 'jwt', gate: /eyJ/, literals: ['eyj'], re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g },
  { rule: 'stripe-key', gate: /[sr]k_/, literals: ['sk_', 'rk_'], re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\b/g },
  { rule: 'stripe-webhook-secret', gate: /whsec_/, literals: ['whsec_'], re: /\bwhsec_[A-Za-z0-9]{24,}\b/g },
  { rule: 'google-api-key', gate: /AIza/, literals: ['aiza'], re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  {
    rule: 'aws-access-key', gate: /AKIA|ASIA|ABIA|ACCA/, literals: ['akia', 'asia', 'abia', 'acca'],
    re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
    accept: (v) => !/EXAMPLE/.test(v),
  },
  {
    // The secret access key written after its key id without a label ("AKIA… with secret
    // wJalr…"): 40 base64 characters within a short span after a real-looking id.
    rule: 'aws-secret-key', gate: /AKIA|ASIA|ABIA|ACCA/, literals: ['akia', 'asia', 'abia', 'acca'],
    re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b[^\n]{0,200}?(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    group: 1,
    accept: (v, m) => !/EXAMPLE/.test(m[0].slice(0, 20)) && /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9/+]/.test(v),
  },
  {
    rule: 'slack-webhook', gate: /hooks\.slack\.com/, literals: ['hooks.slack.com'],
    re: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/[A-Za-z0-9]{16,}/g,
  },
  { rule: 'github-token', gate: /gh[pousr]_/, literals: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b/g },
  {
    rule: 'openai-key', gate: /sk-/, literals: ['sk-'],
    re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}/g,
  },
  { rule: 'anthropic-key', gate: /sk-ant-/, literals: ['sk-ant-'], re: /\bsk-ant-[a-z]+\d*-[A-Za-z0-9_-]{40,}/g },
  { rule: 'gitlab-token', gate: /glpat-/, literals: ['glpat-'], re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { rule: 'slack-token', gate: /xox/, literals: ['xox'], re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  // Sentry organisation tokens (`sntrys_` + base64 claims + `_` + secret) and user tokens (`sntryu_` + 64 hex).
  { rule: 'sentry-token', gate: /sntry[su]_/, literals: ['sntrys_', 'sntryu_'], re: /\bsntry(?:s_[A-Za-z0-9+/=]{20,}_[A-Za-z0-9+/_-]{20,}|u_[a-f0-9]{64}\b)/g },
  // PyPI upload tokens are macaroons whose base64 always starts with the same header.
  { rule: 'pypi-token', gate: /pypi-/, literals: ['pypi-'], re: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  // DigitalOcean personal, OAuth and refresh tokens.
  { rule: 'digitalocean-token', gate: /do[opr]_v1_/, literals: ['dop_v1_', 'doo_v1_', 'dor_v1_'], re: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  {
    rule: 'private-key', gate: /-----BEGIN/, literals: ['-----begin'],
    re: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,12000}?-----END (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    accept: (v) => (v.replace(/-----[^-]+-----/g, '').match(/[A-Za-z0-9+/=]/g)?.length ?? 0) >= 40,
  },
  {
    // scheme://user:password@host — only the password is the range
    rule: 'url-password', gate: /:\/\//, literals: ['://'],
    re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`<>]{1,64}:([^\s@/'"`<>]{3,128})@[A-Za-z0-9.-]+/g,
    group: 1,
    accept: (v, m) => {
      const u = /:\/\/([^\s:/@'"`<>]{1,64}):/.exec(m[0]);
      const host = /@([A-Za-z0-9.-]+)/.exec(m[0].slice(m[0].lastIndexOf('@')));
      return realUrlPassword(u?.[1] ?? '', v, host?.[1] ?? '') && !/^\$|^\{|^<|^%|\*{3}/.test(v);
    },
  },
  {
    // password = "value", api_key: value, client_secret=value ... value must look random
    rule: 'password-assignment', gate: /(?:password|passwd|pwd|secret|key|token)["']?\s*[=:]/i,
    literals: ['password', 'passwd', 'pwd', 'secret', 'key', 'token'],
    re: /\b(?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?key|auth[_-]?token|access[_-]?token|client[_-]?secret|private[_-]?key|token)\b["']?\s*(?:=|:|=>)\s*["'`]?([^\s"'`,;)\]}]{12,200})/gi,
    group: 1,
    accept: (v) => looksLikeSecretValue(v),
  },
];

/** One scan for the literals of every gate: preset rules first, then our own patterns. */
const PRESET_BIT: Record<string, number> = Object.fromEntries(Object.keys(PRESET_GATE).map((short, k) => [short, k]));
const GATES = KeywordGate.forLists([...Object.values(PRESET_GATE).map(([, literals]) => literals), ...OWN.map((p) => p.literals)]);
const OWN_BITS = GATES.bits.slice(Object.keys(PRESET_GATE).length);

/** Our own patterns on `text`; `found`: the gate literals present (null: no gates, every pattern runs). */
function runOwn(text: string, out: SecretRange[], found: number | null) {
  for (let k = 0; k < OWN.length; k++) {
    const p = OWN[k];
    if (found !== null && (!(found & OWN_BITS[k]) || !p.gate.test(text))) continue;
    p.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = p.re.exec(text))) {
      const g = p.group ?? 0;
      const value = m[g];
      if (value === undefined) continue;
      if (p.accept && !p.accept(value, m)) continue;
      // the captured value ends the match for every pattern with a group
      const s = g === 0 ? m.index : m.index + m[0].lastIndexOf(value);
      out.push({ start: s, end: s + value.length, rule: p.rule });
      if (m[0].length === 0) p.re.lastIndex++;
    }
  }
}

/** Merge overlapping ranges; the first (longest) range's rule wins. */
function merge(ranges: SecretRange[]): SecretRange[] {
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) {
      if (r.end > last.end) last.end = r.end;
      continue;
    }
    out.push({ ...r });
  }
  return out;
}

const QUICK =
  /(?:_|-|\.|:\/\/|=|:|KEY|eyJ|AKIA|ASIA|AIza|xox|gh[pousr]_|glpat|sk_|rk_|whsec|hooks\.slack|hv[sbr]\.|npm_|sk-)/i;

/**
 * The union of every gate above (preset rules and our own patterns), case-insensitive: text
 * without any of these literals cannot hold a secret any rule reports. Most memory text has
 * none, and then no rule runs at all.
 */
const ANY_GATE =
  /secret_?access_?key|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|ABIA|ACCA|account|npm_|_authToken|:\/\/|xox|xapp-|hooks\.slack\.com|sk-|gsk_|hf_|lin_api_|ntn_|-----BEGIN|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|glpat-|glc_|glsa_|ops_|hv[sbr]\.|vc[pikar]_|dapi|dckr_pat_|figd_|eyJ|[sr]k_|whsec_|AIza|(?:password|passwd|pwd|secret|key|token)["']?\s*[=:]/i;

/** Every secret-looking range in `text`, sorted, non-overlapping. Synchronous and pure. */
export function detectSecrets(text: string): SecretRange[] {
  return detect(text, true);
}

/** The same with every rule and pattern run on every text: the reference the gates must agree with (tests). */
export function detectSecretsUngated(text: string): SecretRange[] {
  return detect(text, false);
}

function detect(text: string, gated: boolean): SecretRange[] {
  if (!text || text.length < 12) return [];
  // no gate's literal: no gate matches, so neither does their union, ANY_GATE
  const gates = gated ? GATES.gate.scan(text) : -1;
  if (gated && (!gates || !QUICK.test(text))) return [];
  // ANY_GATE only decides for rules without a gate (each gate implies it)
  let any: boolean | undefined;
  const found: SecretRange[] = [];
  sink = found;
  sinkText = text;
  const source = { content: text, filePath: 'memory.md', ext: '.md', contentType: 'text' };
  for (const h of presetHandlers()) {
    if (gated && (h.gate ? !(gates & h.bit) || !h.gate.test(text) : !(any ??= ANY_GATE.test(text)))) continue;
    try {
      const r = h.file(source);
      if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).catch(() => {});
    } catch {
      /* a rule failing on odd input never stops detection */
    }
  }
  sink = [];
  sinkText = '';
  runOwn(text, found, gated ? gates : null);
  return merge(found.filter((r) => r.end > r.start));
}
