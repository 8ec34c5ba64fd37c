// expired: an entry whose `valid_until` (frontmatter or structured slot) or leading "Until <date>:" has passed.
// Dates without a zone are UTC; a date-only value is valid through that whole UTC day.
import type { Check, CheckContext, Entry, Finding } from '../types.js';
import { finding } from './stale-common.js';

/**
 * Whether `YYYY-MM-DD` names a real calendar day. `Date` rolls impossible days over
 * (`2025-02-30` becomes March 2nd), which would move the expiry later than written.
 */
export function realDate(ymd: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  // years below 100 are shifted by Date.UTC: set the full year explicitly
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The instant a `valid_until` value stops being valid, or null when unparseable (or an impossible date). */
export function expiryInstant(value: string): Date | null {
  const v = value.trim().replace(/^["']|["']$/g, '');
  if (/^\d{4}-\d{2}-\d{2}/.test(v) && !realDate(v)) return null;
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (dateOnly) {
    const d = new Date(Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]) + 1));
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v)) {
    const d = new Date(v.replace(' ', 'T') + 'Z');
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v)) {
    const d = new Date(v.replace(' ', 'T'));
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

const SLOT = /(?:^|\n)\s*[-*]?\s*\**valid[_ ]until\**\s*:\s*\**\s*([0-9][0-9T:.+\-Z ]{9,})/i;
/**
 * A rule the entry itself limits in time by opening with "Until <date>:" ("- Until 2026-03-01:
 * deploys are frozen", "**Until 2026-03-01**, use the v1 endpoint"): after that date the rule no
 * longer holds. Only at the start of the entry: "supported until 2026-04-30" in the middle of a
 * sentence is a fact about something else, not the entry's own expiry.
 */
const LEADING_UNTIL = /^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:\*\*|__|\*|_)?until\s+(\d{4}-\d{2}-\d{2})(?:\*\*|__|\*|_)?\s*[:,\u2013\u2014]/i;
/** Part of every SLOT and LEADING_UNTIL match: a quicker scan that rules out most texts. */
const SLOT_GATE = /until/i;

/** The expiry the entry states: frontmatter `valid_until`, a `valid_until:` slot line, or a leading "Until <date>:". */
function statedExpiry(entry: Entry): { value: string; leading: boolean } | undefined {
  if (entry.meta.validUntil) return { value: String(entry.meta.validUntil), leading: false };
  if (!SLOT_GATE.test(entry.text)) return undefined;
  // a sentence's full stop after the date ("valid until: 2026-03-01.") is not part of it
  const slot = SLOT.exec(entry.text)?.[1]?.trim().replace(/\.+$/, '');
  if (slot) return { value: slot, leading: false };
  if (entry.kind === 'code' || entry.kind === 'frontmatter-field') return undefined;
  const lead = LEADING_UNTIL.exec(entry.text)?.[1];
  return lead ? { value: lead, leading: true } : undefined;
}

/**
 * Whether the entry's expiry slot (`valid_until:` line, or its opening "Until <date>:") is its
 * first or last non-blank line: then it dates the whole entry, not one item in the middle of it.
 */
export function expirySlotAtEdge(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const slot = (l: string | undefined) => l !== undefined && (SLOT.test(l) || LEADING_UNTIL.test(l));
  return slot(lines[0]) || slot(lines[lines.length - 1]);
}

export const expiredCheck: Check = {
  needs: 'memory',
  id: 'expired',
  kinds: ['expired'],
  severity: 'warning',
  description: 'Entries whose valid_until date (or leading "Until <date>:") has passed (UTC).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const now = ctx.evidence.now;
    for (const entry of ctx.entries) {
      const stated = statedExpiry(entry);
      if (!stated) continue;
      const value = stated.value;
      const until = expiryInstant(String(value));
      if (!until) {
        const v = String(value).trim().replace(/^["']|["']$/g, '');
        const impossible = /^\d{4}-\d{2}-\d{2}/.test(v) && !realDate(v);
        const label = stated.leading ? `"Until ${value}"` : `\`valid_until: ${value}\``;
        out.push(
          impossible
            ? finding(entry, null, 'expired', 'info', `${label} is not a real calendar date, so this entry never expires; correct it (YYYY-MM-DD, UTC).`, { now: value, unreadable: true, impossible: true })
            : finding(entry, null, 'expired', 'info', `${label} is not a date this tool can read; write it as YYYY-MM-DD (UTC).`, { now: value, unreadable: true }),
        );
        continue;
      }
      if (now.getTime() < until.getTime()) continue;
      const days = Math.floor((now.getTime() - until.getTime()) / 86_400_000);
      out.push(
        finding(
          entry, null, 'expired', 'warning',
          `This entry expired: ${stated.leading ? `"Until ${value}"` : `valid_until ${value}`} passed ${days === 0 ? 'today' : `${days} day${days === 1 ? '' : 's'} ago`} (now ${now.toISOString().slice(0, 10)} UTC); delete it or renew ${stated.leading ? 'the date' : 'valid_until'} after checking it still holds.`,
          { now: String(value), expiredAt: until.toISOString() },
        ),
      );
    }
    return out;
  },
};
