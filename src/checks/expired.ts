// expired: an entry whose `valid_until` (frontmatter or structured slot) has passed.
// Dates without a zone are UTC; a date-only value is valid through that whole UTC day.
import type { Check, CheckContext, Finding } from '../types.js';
import { finding } from './stale-common.js';

/** The instant a `valid_until` value stops being valid, or null when unparseable. */
export function expiryInstant(value: string): Date | null {
  const v = value.trim().replace(/^["']|["']$/g, '');
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

export const expiredCheck: Check = {
  id: 'expired',
  kinds: ['expired'],
  severity: 'warning',
  description: 'Entries whose valid_until date has passed (UTC).',
  run(ctx: CheckContext): Finding[] {
    const out: Finding[] = [];
    const now = ctx.evidence.now;
    for (const entry of ctx.entries) {
      let value = entry.meta.validUntil;
      if (!value) value = SLOT.exec(entry.text)?.[1]?.trim();
      if (!value) continue;
      const until = expiryInstant(String(value));
      if (!until) {
        out.push(finding(entry, null, 'expired', 'info', `\`valid_until: ${value}\` is not a date this tool can read; write it as YYYY-MM-DD (UTC).`, { now: value, unreadable: true }));
        continue;
      }
      if (now.getTime() < until.getTime()) continue;
      const days = Math.floor((now.getTime() - until.getTime()) / 86_400_000);
      out.push(
        finding(
          entry, null, 'expired', 'warning',
          `This entry expired: valid_until ${value} passed ${days === 0 ? 'today' : `${days} day${days === 1 ? '' : 's'} ago`} (now ${now.toISOString().slice(0, 10)} UTC); delete it or renew valid_until after checking it still holds.`,
          { now: String(value), expiredAt: until.toISOString() },
        ),
      );
    }
    return out;
  },
};
