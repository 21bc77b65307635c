// Endpoint 21: PUT /users replaces the whole user set (interpretation USERS_REPLACE); all items or none.
import type { RequestContext, SimResponse } from '../context.js';
import { SimError, counted, listReply } from '../envelope.js';
import { rules } from '../rules.js';
import type { UserRecord } from '../store.js';
import { checkBody } from '../validate.js';

export function replaceUsers(ctx: RequestContext): SimResponse {
  const items = ctx.body as unknown[];
  const schema = ctx.operation?.requestSchema ?? '';
  const users: UserRecord[] = [];
  const problems: string[] = [];
  const mails = new Set<string>();
  items.forEach((raw, index) => {
    const checked = checkBody(schema, raw);
    if (!checked.ok) {
      problems.push(`item ${index}: ${checked.problems.join('; ')}`);
      return;
    }
    const user = checked.value as unknown as UserRecord;
    // mail identifies a user (interpretation USER_REQUIRED), so one array cannot name a user twice.
    if (mails.has(user.mail)) problems.push(`item ${index}: the mail ${JSON.stringify(user.mail)} appears twice`);
    mails.add(user.mail);
    users.push(user);
  });
  if (problems.length > 0) {
    throw new SimError('validation', `No user replaced: ${counted(problems.length, 'item was', 'items were')} refused.`, problems);
  }
  ctx.store.replaceUsers(users);
  return listReply(`${counted(users.length, 'user')} now.`, [users], rules().paginationEnd);
}
