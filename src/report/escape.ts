// Safe rendering of untrusted text (memory content, refs, messages) in Markdown and terminals.
import { redactSecrets } from './redact.js';

/** Neutralises @mentions, HTML comment openers and raw HTML tags, then redacts secrets. */
export function neutralize(text: string): string {
  return redactSecrets(text)
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u200b')
    .replace(/<!--/g, '&lt;!--')
    .replace(/</g, '&lt;');
}

/** One-line Markdown text for a table cell: pipes escaped, newlines folded. */
export function mdCell(text: string): string {
  return neutralize(text).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** An inline code span that can hold any text (backtick fence longer than any run inside). */
export function mdCode(text: string): string {
  const clean = redactSecrets(text).replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${clean.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** A fenced code block that can hold any text. */
export function mdFence(text: string, lang = 'text'): string {
  const clean = redactSecrets(text);
  const longest = Math.max(2, ...(clean.match(/`{3,}/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${clean.replace(/\n$/, '')}\n${fence}`;
}

/** Strips terminal control sequences so memory text cannot drive the terminal. */
export function termSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return redactSecrets(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f\u009b]/g, '');
}
