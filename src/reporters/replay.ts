// The curl script report.html offers for a read-back failure or an explore finding: every exchange of the case up to
// the failing one, in the order the run sent them, as one bash script. Import-free, so the page's script (ui/report.ts)
// builds it from the curl lines it already holds and no line is embedded twice.

/** One exchange of the script: its heading ("Exchange #2 · step “patch” · …") and its curl line (curl.ts). */
export interface ReplayStep {
  head: string;
  curl: string;
}

// A heading is a comment line: no control or line-separator character may end it and start a command.
// eslint-disable-next-line no-control-regex
const BREAKS = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

/** The script: a header saying what to set, then each exchange as a comment and its curl line. */
export function replayScript(caseId: string, steps: ReplayStep[]): string {
  const comment = (text: string): string => `# ${text.replace(BREAKS, ' ')}`;
  return [
    '#!/usr/bin/env bash',
    comment(`Replays ${steps.length} exchange(s) of ${caseId} in the order the run sent them.`),
    '# Set RDX_ACCESS_TOKEN to a token from the token endpoint (and RDX_CLIENT_SECRET for token requests) first.',
    '# Ids and references are the run\'s: a create sent again makes a new record, whose id its answer gives.',
    'set -u',
    ...steps.flatMap((s) => ['', comment(s.head), s.curl]),
    '',
  ].join('\n');
}
