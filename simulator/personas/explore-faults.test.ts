// The faults made for the explore suite (stateful, property-based): each test sends the exact requests that show
// the bug, once against the plain simulator (which must behave) and once with the fault (which must not).
import { expect } from 'chai';
import { items, startTest, type Harness, type Item } from '../../test/support/simulator.js';
import { personaByName } from './index.js';
import type { Persona } from './types.js';

let serial = 0;

/** A valid application step of its own (unique ids), with fields as given. */
function step(fields: Item = {}): Item {
  serial += 1;
  return {
    recorded_at: '2026-03-01T09:00:00Z',
    job_offer_reference: `EXP-JO-${serial}`,
    candidate_ats_id: `EXP-CAND-${serial}`,
    step: 'applied',
    application_ats_id: `EXP-APP-${serial}`,
    ...fields,
  };
}

function jobOffer(fields: Item = {}): Item {
  serial += 1;
  return { publication_at: '2026-03-01T09:00:00Z', title: 'Data Engineer', reference: `EXP-REF-${serial}`, ...fields };
}

/** Runs `body` against the plain simulator (faulty = false) and against one with the fault (faulty = true). */
async function bothWays(fault: string, body: (t: Harness, faulty: boolean) => Promise<void>): Promise<void> {
  const persona = personaByName(fault) as Persona;
  expect(persona, fault).to.not.equal(undefined);
  for (const faulty of [false, true]) {
    const t = await startTest({ personas: faulty ? [persona] : [] });
    try {
      await body(t, faulty);
    } finally {
      await t.close();
    }
  }
}

async function createStep(t: Harness, fields: Item = {}): Promise<number> {
  const res = await t.client.post('/ats/application-steps', [step(fields)]);
  expect(res.status, res.text).to.equal(201);
  return items(res)[0]?.['id'] as number;
}

async function readStep(t: Harness, id: number): Promise<Item> {
  const res = await t.client.get(`/ats/application-steps/${id}`);
  expect(res.status, res.text).to.equal(200);
  return items(res)[0] as Item;
}

describe('explore faults: bugs the hand-written cases miss, shown request by request', () => {
  it('fractional-seconds-dropped: a date-time with milliseconds reads back as another instant', async () => {
    await bothWays('fractional-seconds-dropped', async (t, faulty) => {
      const written = '2026-03-01T09:00:00.250Z';
      const id = await createStep(t, { recorded_at: written });
      const read = Date.parse(String((await readStep(t, id))['recorded_at']));
      expect(read === Date.parse(written), `faulty: ${faulty}`).to.equal(!faulty);
      const offer = jobOffer({ publication_at: '2026-03-01T10:00:00.5+02:00' });
      expect((await t.client.post('/ats/job-offers', [offer])).status).to.equal(201);
      const back = items(await t.client.get(`/ats/job-offers/${String(offer['reference'])}`))[0] as Item;
      expect(Date.parse(String(back['publication_at'])) === Date.parse('2026-03-01T10:00:00.5+02:00'), `faulty: ${faulty}`).to.equal(!faulty);
      // Whole seconds are untouched either way: the suites' dates never show it.
      const whole = await createStep(t, { recorded_at: '2026-03-01T09:00:01Z' });
      expect(Date.parse(String((await readStep(t, whole))['recorded_at']))).to.equal(Date.parse('2026-03-01T09:00:01Z'));
    });
  });

  it('empty-text-as-null: an optional field created or replaced with "" reads back absent', async () => {
    await bothWays('empty-text-as-null', async (t, faulty) => {
      const id = await createStep(t, { source: '', subsidiary: 'Contoso' });
      const created = await readStep(t, id);
      expect(created['source'], `faulty: ${faulty}`).to.equal(faulty ? undefined : '');
      expect(created['subsidiary']).to.equal('Contoso');
      const put = await t.client.put(`/ats/application-steps/${id}`, step({ job_offer_title: '' }));
      expect(put.status, put.text).to.equal(200);
      expect((await readStep(t, id))['job_offer_title'], `faulty: ${faulty}`).to.equal(faulty ? undefined : '');
    });
  });

  it('optional-type-fails-batch: one item with an optional text field of another type loses the valid items too', async () => {
    await bothWays('optional-type-fails-batch', async (t, faulty) => {
      const good = jobOffer();
      const res = await t.client.post('/ats/job-offers', [good, jobOffer({ subsidiary: 42 })]);
      expect(res.status, res.text).to.equal(faulty ? 400 : 207);
      expect(res.body.errors, res.text).to.have.length(1);
      const read = await t.client.get(`/ats/job-offers/${String(good['reference'])}`);
      expect(read.status, `faulty: ${faulty}`).to.equal(faulty ? 404 : 200);
      // A missing required field is still handled item by item: the hand-written mixed batches pass.
      const mixed = await t.client.post('/ats/job-offers', [jobOffer(), jobOffer({ title: undefined })]);
      expect(mixed.status, mixed.text).to.equal(207);
    });
  });

  it('candidate-details-shared: a PATCH of one step rewrites the candidate fields of another step of that candidate', async () => {
    await bothWays('candidate-details-shared', async (t, faulty) => {
      const first = await createStep(t, { candidate_ats_id: `EXP-SHARED-${serial}`, candidate_mail: 'old@example.test' });
      const candidate = (await readStep(t, first))['candidate_ats_id'];
      const second = await createStep(t, { candidate_ats_id: candidate, candidate_mail: 'old@example.test', candidate_phone: '+33 1 00' });
      const patched = await t.client.patch(`/ats/application-steps/${second}`, { candidate_mail: 'new@example.test' });
      expect(patched.status, patched.text).to.equal(200);
      expect((await readStep(t, second))['candidate_mail']).to.equal('new@example.test');
      expect((await readStep(t, first))['candidate_mail'], `faulty: ${faulty}`).to.equal(faulty ? 'new@example.test' : 'old@example.test');
      expect((await readStep(t, first))['candidate_phone'], `faulty: ${faulty}`).to.equal(faulty ? '+33 1 00' : undefined);
      // A step of another candidate is never touched.
      const other = await createStep(t, { candidate_mail: 'other@example.test' });
      await t.client.put(`/ats/application-steps/${second}`, step({ candidate_ats_id: candidate, candidate_phone: '+33 1 99' }));
      expect((await readStep(t, other))['candidate_mail']).to.equal('other@example.test');
      expect((await readStep(t, first))['candidate_phone'], `faulty: ${faulty}`).to.equal(faulty ? '+33 1 99' : undefined);
    });
  });

  it('step-cache-stale-after-move: a step read, then moved to another application by PUT, reads back as before', async () => {
    await bothWays('step-cache-stale-after-move', async (t, faulty) => {
      const id = await createStep(t);
      const before = await readStep(t, id);
      // A PUT that keeps the application_ats_id (what the hand-written chain does) busts the right tag.
      const kept = step({ application_ats_id: before['application_ats_id'], step: 'screening' });
      expect((await t.client.put(`/ats/application-steps/${id}`, kept)).status).to.equal(200);
      expect((await readStep(t, id))['step']).to.equal('screening');
      const moved = step({ step: 'interview' });
      expect((await t.client.put(`/ats/application-steps/${id}`, moved)).status).to.equal(200);
      const after = await readStep(t, id);
      expect(after['application_ats_id'], `faulty: ${faulty}`).to.equal(faulty ? before['application_ats_id'] : moved['application_ats_id']);
      expect(after['step'], `faulty: ${faulty}`).to.equal(faulty ? 'screening' : 'interview');
    });
  });

  it('concurrent-creates-share-ids: two batches of several steps created at the same moment get the same ids, the earlier one lost', async () => {
    await bothWays('concurrent-creates-share-ids', async (t, faulty) => {
      const a = [step(), step()];
      const b = [step(), step()];
      const [ra, rb] = await Promise.all([t.client.post('/ats/application-steps', a), t.client.post('/ats/application-steps', b)]);
      expect([ra.status, rb.status], ra.text + rb.text).to.deep.equal([201, 201]);
      const ids = [...items(ra), ...items(rb)].map((r) => r['id'] as number);
      expect(new Set(ids).size, `faulty: ${faulty}: ${JSON.stringify(ids)}`).to.equal(faulty ? 2 : 4);
      const stored = await Promise.all(ids.map((id) => readStep(t, id)));
      const kept = new Set(stored.map((r) => r['application_ats_id']));
      const sent = [...a, ...b].map((r) => r['application_ats_id']);
      expect(sent.filter((s) => kept.has(s)), `faulty: ${faulty}`).to.have.length(faulty ? 2 : 4);
      // One batch after the other never collides, nor do single steps created side by side (a plain INSERT).
      const later = await createStep(t);
      expect(ids).to.not.include(later);
      const singles = await Promise.all([createStep(t), createStep(t)]);
      expect(singles[0]).to.not.equal(singles[1]);
    });
  });

  it('credentials-case-insensitive: a secret or client id differing only in case or trailing spaces gets a token', async () => {
    await bothWays('credentials-case-insensitive', async (t, faulty) => {
      const { clientId, clientSecret } = t.sim.options;
      const token = (id: string, secret: string): Promise<number> => t.client
        .post('/oauth2/token', { client_id: id, client_secret: secret, grant_type: 'client_credentials' }, { anonymous: true })
        .then((res) => res.status);
      expect(await token(clientId, clientSecret.toUpperCase()), `faulty: ${faulty}`).to.equal(faulty ? 200 : 401);
      expect(await token(clientId, `${clientSecret}  `), `faulty: ${faulty}`).to.equal(faulty ? 200 : 401);
      expect(await token(clientId.toUpperCase(), clientSecret), `faulty: ${faulty}`).to.equal(faulty ? 200 : 401);
      // What the hand-written cases send is refused either way.
      expect(await token(clientId, `wrong-${clientSecret}`)).to.equal(401);
      expect(await token(clientId, `${clientSecret}x`)).to.equal(401);
      expect(await token(clientId, clientSecret)).to.equal(200);
    });
  });
  it('jobboard-delete-removes-batch: deleting one jobboard job offer of a batch removes the others of that batch', async () => {
    await bothWays('jobboard-delete-removes-batch', async (t, faulty) => {
      const offer = (): Item => {
        serial += 1;
        return { reference: `EXP-JB-${serial}`, title: 'Data Engineer' };
      };
      const created = await t.client.post('/jobboard/job-offers', [offer(), offer(), offer()]);
      expect(created.status, created.text).to.equal(201);
      const [first, second, third] = items(created).map((r) => r['id'] as number);
      const alone = items(await t.client.post('/jobboard/job-offers', [offer()]))[0]?.['id'] as number;
      expect((await t.client.delete(`/jobboard/job-offers/${String(first)}`)).status).to.equal(200);
      // Read back by a PATCH with nothing, as the spec has no GET of a jobboard job offer.
      const still = async (id: number | undefined): Promise<number> => (await t.client.patch(`/jobboard/job-offers/${String(id)}`, {})).status;
      expect([await still(second), await still(third)], `faulty: ${faulty}`).to.deep.equal(faulty ? [404, 404] : [200, 200]);
      // An offer created alone is untouched either way, and a deleted one is gone either way.
      expect(await still(alone)).to.equal(200);
      expect(await still(first)).to.equal(404);
    });
  });
});
