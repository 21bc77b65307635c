import { expect } from 'chai';
import { createFaker } from '../src/data/factories.js';
import { Store } from './store.js';
import { Table, type PageQuery } from './table.js';
import { KeyIndex, SeqList, SharedStrings, mergeScan } from './table-parts.js';

interface Thing {
  id: number;
  colour: string;
  /** Absent: the record has no date, so no date filter matches it. */
  day?: number;
  /** A filter of many values: most have one record, some a few. */
  tag?: string;
}

const DAY = 86_400_000;

function walkAll(table: Table<number, Thing>, query: Omit<PageQuery, 'after' | 'limit'>, limit: number): Thing[] {
  const out: Thing[] = [];
  let after = 0;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = table.page({ ...query, after, limit });
    out.push(...page.items);
    if (!page.more) return out;
    expect(page.items).to.have.length(limit);
    after = page.last;
  }
  throw new Error('the walk did not end');
}

function brute(things: Thing[], query: Omit<PageQuery, 'after' | 'limit'>): Thing[] {
  const colours = query.eq?.['colour'];
  const tags = query.eq?.['tag'];
  return things.filter((t) => (!colours || colours.length === 0 || colours.includes(t.colour))
    && (!tags || tags.length === 0 || (t.tag !== undefined && tags.includes(t.tag)))
    && (query.from === undefined || (t.day !== undefined && t.day * DAY >= query.from))
    && (query.to === undefined || (t.day !== undefined && t.day * DAY <= query.to)));
}

const dayOf = (t: Thing): number | undefined => (t.day === undefined ? undefined : t.day * DAY);

const QUERIES: Omit<PageQuery, 'after' | 'limit'>[] = [
  {},
  { eq: { colour: ['red'] } },
  { eq: { colour: ['red', 'blue'] } },
  { from: 10 * DAY, to: 12 * DAY },
  { eq: { colour: ['green'] }, from: 30 * DAY },
  { to: 5 * DAY },
  { from: 0 },
  // A filter narrower than the days it spans: its records' dates are checked one by one, undated ones too.
  { eq: { colour: ['red'] }, to: 59 * DAY },
  { eq: { tag: ['t3', 't4', 't5'] }, from: 0 },
  { eq: { colour: ['none'] } },
  ...Array.from({ length: 300 }, (_, i) => ({ eq: { tag: [`t${i}`] } })),
  { eq: { tag: ['t1', 't2', 't3', 't250', 'none'] } },
  { eq: { tag: ['t7'], colour: ['red', 'green'] }, from: 10 * DAY },
];

/** Every query, walked page by page at several page sizes, finds what a brute-force filter of the records finds. */
function expectAgreesWithBrute(table: Table<number, Thing>): void {
  for (const query of QUERIES) {
    for (const limit of [1, 7, 1000]) {
      expect(walkAll(table, query, limit), JSON.stringify({ query, limit })).to.deep.equal(brute(table.values(), query));
    }
  }
}

/**
 * Inserts, replacements (of colour, day, tag) and removals at random, checking each answer; returns what the table
 * must hold afterwards by id, kept apart from the table (the brute-force filter reads the table's own values).
 */
function randomChanges(table: Table<number, Thing>, faker: ReturnType<typeof createFaker>, steps: number): Map<number, Thing> {
  const model = new Map<number, Thing>(table.values().map((t) => [t.id, t]));
  const colours = ['red', 'green', 'blue', 'amber'];
  // 1 in 8 records has no tag; the others one of 300, so tag buckets hold none, one or a few rows as they change.
  const tag = (): string | undefined => (faker.number.int(7) === 0 ? undefined : `t${faker.number.int(299)}`);
  // 1 in 10 has no date.
  const day = (): number | undefined => (faker.number.int(9) === 0 ? undefined : faker.number.int(60));
  for (let i = 0; i < steps; i++) {
    const roll = faker.number.int(9);
    const live = table.values();
    if (roll < 6 || live.length === 0) {
      table.insert((id) => {
        const made = { id, colour: faker.helpers.arrayElement(colours), day: day(), tag: tag() };
        model.set(id, made);
        return made;
      });
    } else if (roll < 8) {
      const victim = faker.helpers.arrayElement(live);
      const changed = { ...victim, colour: faker.helpers.arrayElement(colours), day: day(), tag: tag() };
      expect(table.replace(victim.id, changed)).to.equal('ok');
      model.set(victim.id, changed);
    } else {
      const victim = faker.helpers.arrayElement(live);
      expect(table.remove(victim.id)).to.equal(true);
      model.delete(victim.id);
    }
  }
  return model;
}

const byId = (things: Thing[]): Thing[] => [...things].sort((a, b) => a.id - b.id);

describe('simulator table', () => {
  it('merges seq-sorted buckets in order from a cursor', () => {
    const seen: number[] = [];
    mergeScan([[1, 4, 9], [2, 3, 10], [], [5]].map((seqs) => SeqList.of(seqs)), 2, (seq) => {
      seen.push(seq);
      return seen.length < 5;
    });
    expect(seen).to.deep.equal([3, 4, 5, 9, 10]);
  });

  it('pages agree with a brute-force filter through random inserts, changes and removals', () => {
    const table = new Table<number, Thing>({ keyOf: (t) => t.id, filters: { colour: (t) => t.colour, tag: (t) => t.tag }, dateOf: dayOf });
    const model = randomChanges(table, createFaker(5), 600);
    // The table holds exactly the records the changes left (the brute force below filters the table's own values).
    expect(byId(table.values())).to.deep.equal(byId([...model.values()])).and.have.length.above(100);
    expect(table.size).to.equal(model.size);
    expectAgreesWithBrute(table);
  });

  it('pages agree with a brute-force filter for records loaded with sequence numbers far apart, then changed', () => {
    const table = new Table<number, Thing>({ keyOf: (t) => t.id, filters: { colour: (t) => t.colour, tag: (t) => t.tag }, dateOf: dayOf });
    const faker = createFaker(9);
    // Sequence numbers and ids past the array of either index (a snapshot may hold them), and some near them.
    const seqs = [3, 4, 1500, 1501, 10 ** 6, 2 ** 31 + 1, 2 ** 40, 2 ** 40 + 2];
    const rows = seqs.map((seq, i): [number, Thing] => [seq, { id: seqs[seqs.length - 1 - i] as number, colour: i % 2 === 0 ? 'red' : 'blue', day: i === 3 ? undefined : i * 3, tag: `t${i}` }]);
    table.load(2 ** 40 + 5, rows);
    expect(table.values()).to.deep.equal(rows.map(([, thing]) => thing));
    expectAgreesWithBrute(table);
    // New records get numbers after the last one; changes and removals reach the far ones too.
    randomChanges(table, faker, 300);
    expect(table.dump().rows.every(([seq], i, all) => i === 0 || seq > (all[i - 1] as [number, Thing])[0])).to.equal(true);
    expectAgreesWithBrute(table);
  });

  it('undoes a transaction that throws, and on demand', () => {
    const store = new Store();
    const offer = { publication_at: '2026-01-01T00:00:00Z', title: 'A', reference: 'R1' };
    store.jobOffers.insert(() => offer);
    expect(() => store.transaction(() => {
      store.jobOffers.insert(() => ({ ...offer, reference: 'R2' }));
      store.jobOffers.replace('R1', { ...offer, title: 'B', reference: 'R3' });
      throw new Error('half-way');
    })).to.throw('half-way');
    expect(store.jobOffers.values()).to.deep.equal([offer]);
    expect(store.jobOffers.page({ eq: { reference: ['R1'] }, after: 0, limit: 5 }).items).to.deep.equal([offer]);

    const tx = store.transaction(() => {
      store.jobOffers.remove('R1');
      store.replaceUsers([{ mail: 'a@b.c' }]);
    });
    expect(store.jobOffers.size).to.equal(0);
    tx.undo();
    tx.undo();
    expect(store.jobOffers.values()).to.deep.equal([offer]);
    expect(store.users).to.deep.equal([]);
  });

  it('keeps sequence numbers in order as a sorted array does, across chunks that fill, split and empty', () => {
    const faker = createFaker(13);
    const list = new SeqList();
    const model: number[] = [];
    let next = 1;
    const readFrom = (after: number): number[] => {
      const seen: number[] = [];
      for (const cursor = list.cursor(after); !Number.isNaN(cursor.head) && seen.length < 50; cursor.next()) seen.push(cursor.head);
      return seen;
    };
    /** Where seq is, or goes, in the model. */
    const place = (seq: number): number => {
      let lo = 0;
      let hi = model.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((model[mid] as number) < seq) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    for (let step = 0; step < 50_000; step++) {
      const roll = faker.number.int({ min: 0, max: 99 });
      if (step % 10_000 === 9999) {
        // A run of removals longer than a chunk, so that whole chunks empty.
        const from = place(faker.number.int({ min: 0, max: next / 2 }));
        for (const seq of model.splice(from, 4500)) list.remove(seq);
      } else if (roll < 80) {
        // Mostly new numbers past the last, as records are created; some into gaps, as undo and re-indexing add them.
        const seq = roll < 70 || model.length === 0 ? (next += faker.number.int({ min: 1, max: 3 })) : faker.number.int({ min: 1, max: next });
        const at = place(seq);
        if (model[at] === seq) continue;
        list.add(seq);
        model.splice(at, 0, seq);
      } else if (roll < 95) {
        // Removal of a present number or an absent one.
        const seq = roll < 90 && model.length > 0 ? faker.helpers.arrayElement(model) : faker.number.int({ min: 0, max: next + 5 });
        list.remove(seq);
        const at = place(seq);
        if (model[at] === seq) model.splice(at, 1);
      } else {
        const after = faker.number.int({ min: -1, max: next + 1 });
        expect(readFrom(after), `read after ${after} at step ${step}`).to.deep.equal(model.slice(place(after + 1), place(after + 1) + 50));
      }
      expect(list.length, `length at step ${step}`).to.equal(model.length);
    }
    expect(model.length, 'the list spans several chunks').to.be.above(2 * 4096);
    expect(list.values()).to.deep.equal(model);
    const merged: number[] = [];
    mergeScan([list, SeqList.of([0.5, next + 10]), new SeqList()], -1, (seq) => merged.push(seq) > 0);
    expect(merged).to.deep.equal([0.5, ...model, next + 10]);
    list.clear();
    expect([list.length, list.values(), readFrom(0)]).to.deep.equal([0, [], []]);
  });

  it('finds by key exactly as a Map does, for ids in order, ids far apart, and keys that are not ids', () => {
    const faker = createFaker(11);
    const index = new KeyIndex<number | string, string>();
    const model = new Map<number | string, string>();
    let next = 1;
    for (let step = 0; step < 20_000; step++) {
      const roll = faker.number.int({ min: 0, max: 99 });
      const key: number | string = roll < 50 ? next++
        : roll < 65 ? faker.number.int({ min: 0, max: next + 3000 })
          : roll < 75 ? faker.number.int({ min: 0, max: 10 ** 9 })
            : roll < 80 ? faker.helpers.arrayElement([-1, 0.5, Number.NaN, 2 ** 53])
              : roll < 85 ? `JO-${faker.number.int({ min: 0, max: 500 })}` : faker.number.int({ min: 0, max: next });
      const op = faker.number.int({ min: 0, max: 9 });
      if (op < 6) {
        index.set(key, `v${step}`);
        model.set(key, `v${step}`);
      } else if (op < 8) expect(index.delete(key), `delete ${String(key)}`).to.equal(model.delete(key));
      else expect(index.get(key), `get ${String(key)}`).to.equal(model.get(key));
      expect(index.has(key), `has ${String(key)}`).to.equal(model.has(key));
      expect(index.size, `size after step ${step}`).to.equal(model.size);
    }
    for (const [key, value] of model) expect(index.get(key), `get ${String(key)} at the end`).to.equal(value);
    index.clear();
    expect(index.size).to.equal(0);
    expect(index.get(1)).to.equal(undefined);
  });

  it('keeps every value exactly as given when it shares equal strings, for any field names and values', () => {
    const faker = createFaker(7);
    const shared = new SharedStrings();
    for (let i = 0; i < 5000; i++) {
      const record: Record<string, unknown> = { id: i, nothing: null, flag: i % 2 === 0, nested: { status: 'open' } };
      // 200 field names (more than are followed), values of few and of many kinds, some too long to share.
      for (let f = 0; f < 6; f++) {
        const name = `field${faker.number.int({ min: 0, max: 199 })}`;
        record[name] = f % 3 === 0 ? faker.helpers.arrayElement(['open', 'closed', 'draft'])
          : f % 3 === 1 ? faker.string.alphanumeric({ length: { min: 1, max: 80 } }) : faker.number.int();
      }
      record['status'] = `s${i % 2000}`;
      const before = structuredClone(record);
      shared.share(i % 100 === 0 ? Object.freeze(record) : record);
      expect(record, `record ${i}`).to.deep.equal(before);
      expect(Object.keys(record), `record ${i}: field order`).to.deep.equal(Object.keys(before));
    }
  });

  it('reads a page of a large table from its indexes, not by scanning it', () => {
    let looks = 0;
    const table = new Table<number, Thing>({
      keyOf: (t) => t.id,
      filters: { colour: (t) => { looks += 1; return t.colour; } },
      dateOf: dayOf,
    });
    for (let i = 0; i < 200_000; i++) table.insert((id) => ({ id, colour: i % 1000 === 0 ? 'rare' : 'common', day: Math.floor(i / 548) }));
    looks = 0;
    const rare = table.page({ eq: { colour: ['rare'] }, after: 0, limit: 50 });
    expect(rare.items).to.have.length(50);
    expect(rare.items.every((t) => t.colour === 'rare')).to.equal(true);
    expect(looks, 'rows looked at for a rare value').to.be.at.most(51);
    looks = 0;
    const day = table.page({ eq: { colour: ['common'] }, from: 200 * DAY, to: 200 * DAY, after: 0, limit: 50 });
    expect(day.items.every((t) => t.day === 200)).to.equal(true);
    expect(looks, 'rows looked at for one day of a common value').to.be.at.most(52);
    const last = table.page({ eq: { colour: ['common'] }, from: 200 * DAY, to: 200 * DAY, after: day.last, limit: 1000 });
    expect(last.more).to.equal(false);
    expect(day.items.length + last.items.length).to.equal(548 - 1);
  });
});
