// The words the generated data is made of. The spec leaves these vocabularies open, so they are ours; where the
// interpretation register names the seeded values (ACTIVITY_STATUS_VALUES, USER_REQUIRED) a test keeps the two
// in step. No faker here, so the harness can read the vocabulary without loading it.

/** The group's subsidiaries, each with its ids in the ATS and on the job board, so the ids stay consistent. */
export interface Subsidiary {
  name: string;
  atsId: string;
  jobboardId: string;
  /** Mail domain of the subsidiary's staff. */
  domain: string;
}

export const SUBSIDIARIES: readonly Subsidiary[] = [
  { name: 'Northwind Health', atsId: 'ATS-SUB-01', jobboardId: 'JB-1001', domain: 'northwind-health.example' },
  { name: 'Contoso Logistics', atsId: 'ATS-SUB-02', jobboardId: 'JB-1002', domain: 'contoso-logistics.example' },
  { name: 'Fabrikam Engineering', atsId: 'ATS-SUB-03', jobboardId: 'JB-1003', domain: 'fabrikam.example' },
  { name: 'Tailspin Retail', atsId: 'ATS-SUB-04', jobboardId: 'JB-1004', domain: 'tailspin-retail.example' },
  { name: 'Adatum Finance', atsId: 'ATS-SUB-05', jobboardId: 'JB-1005', domain: 'adatum.example' },
  { name: 'Litware Software', atsId: 'ATS-SUB-06', jobboardId: 'JB-1006', domain: 'litware.example' },
];

/** Job board activity statuses, with the share of activities each takes and the range of its daily count. */
export const ACTIVITY_STATUSES = ['viewed', 'clicked', 'applied', 'interviewed', 'hired', 'rejected'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];
export const ACTIVITY_PROFILE: Readonly<Record<ActivityStatus, { weight: number; count: [number, number] }>> = {
  viewed: { weight: 40, count: [20, 800] },
  clicked: { weight: 25, count: [5, 200] },
  applied: { weight: 15, count: [1, 40] },
  interviewed: { weight: 9, count: [1, 8] },
  hired: { weight: 3, count: [1, 2] },
  rejected: { weight: 8, count: [1, 25] },
};

/**
 * The application pipeline: every application starts at the first step and goes on to the next with the given
 * chance; one that stops is rejected with the given chance (else it is still open); one that reaches the last
 * step ends hired or rejected.
 */
export const STEP_PIPELINE = ['applied', 'screening', 'interview', 'offer'] as const;
export const STEP_OUTCOMES = ['hired', 'rejected'] as const;
export const STEP_ADVANCE_CHANCE: Readonly<Record<(typeof STEP_PIPELINE)[number], number>> = {
  applied: 0.65,
  screening: 0.55,
  interview: 0.4,
  offer: 0.75,
};
export const STEP_REJECT_CHANCE = 0.7;
export const STEPS: readonly string[] = [...STEP_PIPELINE, ...STEP_OUTCOMES];

export const APPLICATION_SOURCES = ['LinkedIn', 'Indeed', 'Company website', 'Employee referral', 'Job fair', 'Jobboard'] as const;

export const USER_STATUSES = ['active', 'inactive', 'invited'] as const;

/** Attribute names a job offer may carry, each with how its value is made. */
export const CONTRACT_TYPES = ['permanent', 'fixed-term', 'freelance', 'internship', 'apprenticeship'] as const;
export const WORK_MODES = ['on-site', 'hybrid', 'remote'] as const;
export const EXPERIENCE_LEVELS = ['junior', 'intermediate', 'senior', 'lead'] as const;

/**
 * Generated dates fall in the DATA_WINDOW_DAYS days before DATA_ANCHOR: a fixed instant rather than the clock,
 * so one seed gives the same data on every run and every day.
 */
export const DATA_ANCHOR = Date.UTC(2027, 0, 1);
export const DATA_WINDOW_DAYS = 365;
export const DAY_MS = 86_400_000;
export const DATA_WINDOW_START = DATA_ANCHOR - DATA_WINDOW_DAYS * DAY_MS;
