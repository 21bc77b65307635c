// The activities' list under every filter it takes at once: the shared reference, a status, date bounds. What it
// must return is exactly the model's records that match; a record within a day of a bound may come or not, since
// the bounds' inclusivity and time zone are open (DATE_FILTER_INCLUSIVITY), and a list refused for the date format
// the implementation does not read judges nothing (DATE_FILTER_FORMAT).
import type { ProfileDeclared } from '../../config/profile.js';
import { Command } from './commands.js';
import { matchOf } from './records.js';
import type { ModelRecord, Session } from './session.js';

const DAY = 86_400_000;

export class FilteredList extends Command {
  constructor(family: Command['family'], readonly slot: number, readonly status: number | undefined, readonly days: [number, number] | undefined) {
    super(family);
  }
  describe(): string {
    return `list activities by reference${this.status !== undefined ? ', status' : ''}${this.days ? ' and dates' : ''}`;
  }
  protected async act(s: Session): Promise<void> {
    const reference = s.shared('job_offer_reference', this.slot);
    const status = this.status === undefined ? undefined : s.statuses[this.status % Math.max(1, s.statuses.length)];
    const [lo, hi] = this.days ? [Math.min(...this.days) * DAY, Math.max(...this.days) * DAY] : [undefined, undefined];
    const query: Record<string, unknown> = { job_offer_reference: reference, ...(status ? { status } : {}) };
    const declared = s.run.services.profile.declared;
    if (lo !== undefined && hi !== undefined) Object.assign(query, { min_date: bound(lo, declared), max_date: bound(hi, declared) });
    const mine = s.records.filter((r) => r.fields['job_offer_reference'] === reference);
    const place = (r: ModelRecord): 'in' | 'out' | 'edge' => {
      if (status && r.fields['status'] !== status) return 'out';
      if (lo === undefined || hi === undefined) return 'in';
      const at = Date.parse(String(r.fields['recorded_at']));
      if (Number.isNaN(at)) return 'edge';
      if (at > lo + DAY && at < hi - DAY) return 'in';
      return at < lo - DAY || at > hi + DAY ? 'out' : 'edge';
    };
    const clause = lo !== undefined ? 'FILTER.DATE_BOUNDS' : status ? 'FILTER.STATUS' : 'FILTER.REFERENCE';
    const entry = (r: ModelRecord, why: string): { match: Record<string, unknown>; fields: Record<string, unknown>; clause: string; why: string } =>
      ({ match: matchOf(this.family, r), fields: {}, clause, why });
    await s.send({
      name: this.describe(), operation: 'listJobboardActivities', query, paginate: { maxPages: 10 },
      expect: { checks: [{ id: 'records-are', with: {
        resource: this.family.resource, only: clause, ifAnswered: lo !== undefined,
        expect: mine.filter((r) => place(r) === 'in').map((r) => entry(r, 'it matches every filter')),
        absent: mine.filter((r) => place(r) === 'out').map((r) => entry(r, 'a filter it does not match')),
        maybe: mine.filter((r) => place(r) === 'edge').map((r) => ({ match: matchOf(this.family, r) })),
      } }] },
    });
  }
}

/** A date bound in the format the profile declares for date filters, else a calendar date (DATE_FILTER_FORMAT). */
function bound(ms: number, declared: ProfileDeclared): string {
  const iso = new Date(ms).toISOString();
  return declared['dateFilterFormat'] === 'date-time' ? iso.replace(/\.000Z$/, 'Z') : iso.slice(0, 10);
}
