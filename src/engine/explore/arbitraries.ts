// The generated sequences: fast-check arbitraries of the commands of each model, over the values of values.ts.
import fc from 'fast-check';
import type { ProfileDeclared } from '../../config/profile.js';
import { Command, Create, CreateSideBySide, Delete, Patch, PatchSideBySide, Put } from './commands.js';
import { nearMissCommands } from './credentials.js';
import { FAMILIES, vocabularyOf, writableFields, type ExploreModel, type Family } from './families.js';
import { AddAttributes, ChangeAttribute, ListByReference } from './job-offers.js';
import { FilteredList } from './filters.js';
import type { Draft } from './records.js';
import { refusable, valueOf, type Drawn } from './values.js';

/** An item drawn field by field: a create or PUT carries every required field; a PATCH any subset, none included. */
function draft(family: Family, mode: 'create' | 'put' | 'patch', declared: ProfileDeclared): fc.Arbitrary<Draft> {
  const fields = writableFields(family, declared).filter((f) => f.name !== family.unique);
  const model: Record<string, fc.Arbitrary<Drawn>> = {};
  for (const f of fields) {
    model[f.name] = family.shared.includes(f.name) ? fc.nat({ max: 2 }).map((slot) => ({ slot }))
      : valueOf(f, vocabularyOf(family, f.name, declared)).map((value) => ({ value }));
  }
  const requiredKeys = mode === 'patch' ? [] : fields.filter((f) => f.required).map((f) => f.name);
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Draft>;
}

/** The commands of a family of records. */
function recordCommands(family: Family, declared: ProfileDeclared): fc.Arbitrary<Command>[] {
  const drafts = fc.array(draft(family, 'create', declared), { minLength: 1, maxLength: 3 });
  const spoil = fc.record({ field: fc.nat({ max: 40 }), omit: fc.boolean() });
  const create = fc.tuple(drafts, fc.option(spoil, { nil: undefined, freq: 3 })).map(([d, s]) => new Create(family, d, s));
  const plainCreate = drafts.map((d) => new Create(family, d));
  const patch = fc.tuple(fc.nat({ max: 7 }), draft(family, 'patch', declared), fc.boolean()).map(([i, d, twice]) => new Patch(family, i, d, twice));
  const put = fc.tuple(fc.nat({ max: 7 }), draft(family, 'put', declared), fc.boolean()).map(([i, d, twice]) => new Put(family, i, d, twice));
  // Listed twice: drawn twice as often (a sequence needs records before it can write them).
  const commands: fc.Arbitrary<Command>[] = [
    create, create, ...(family.replace ? [put, put] : []), patch, patch,
    ...(family.remove ? [fc.nat({ max: 7 }).map((i) => new Delete(family, i))] : []),
    fc.tuple(plainCreate, plainCreate).map(([a, b]) => new CreateSideBySide(family, a, b)),
    fc.tuple(patch, patch).map(([a, b]) => new PatchSideBySide(family, a, b)),
  ];
  if (family.name === 'jobboard-activities') {
    const days = fc.tuple(fc.integer({ min: 0, max: 47_481 }), fc.integer({ min: 0, max: 47_481 }));
    commands.push(fc.tuple(fc.nat({ max: 2 }), fc.option(fc.nat({ max: 9 }), { nil: undefined }), fc.option(days, { nil: undefined }))
      .map(([slot, status, d]) => new FilteredList(family, slot, status, d)));
  }
  if (family.name === 'ats-job-offers') {
    const value = valueOf({ name: 'value', types: ['string'], union: false, identity: false, reference: false }).filter((v) => !refusable(v));
    commands.push(
      fc.tuple(fc.nat({ max: 7 }), fc.array(fc.record({ name: fc.nat({ max: 3 }), value }), { minLength: 1, maxLength: 3 }))
        .map(([i, e]) => new AddAttributes(family, i, e)),
      fc.tuple(fc.nat({ max: 7 }), fc.nat({ max: 3 }), value, fc.boolean()).map(([i, n, v, remove]) => new ChangeAttribute(family, i, n, v, remove)),
      fc.tuple(fc.nat({ max: 7 }), fc.boolean()).map(([i, unknown]) => new ListByReference(family, i, unknown)),
    );
  }
  return commands;
}

/** The command arbitraries of an explore model. */
export function commandsOf(model: ExploreModel, declared: ProfileDeclared): fc.Arbitrary<fc.AsyncCommand<import('./session.js').Session, import('./session.js').Session>>[] {
  return model === 'credentials' ? nearMissCommands() : recordCommands(FAMILIES[model], declared);
}
