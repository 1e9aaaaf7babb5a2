import type { AppContext } from '../../platform/context.js';
import { setPassword } from './auth.service.js';

/** The first line of standard input, without its line ending (the password never sits in argv). */
export async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** `set-password --email E [--account N]`: the new password is read from standard input. */
export async function setPasswordCommand(
  ctx: AppContext,
  input: { email: string; accountId?: number; password: string },
) {
  let query = ctx.db
    .selectFrom('users')
    .select(['id', 'account_id', 'name', 'email', 'role'])
    .where('email', '=', input.email.trim().toLowerCase())
    .where('deleted_at', 'is', null);
  if (input.accountId !== undefined) query = query.where('account_id', '=', input.accountId);
  const users = await query.execute();
  if (users.length === 0) throw new Error(`No active user has the email ${input.email}`);
  if (users.length > 1)
    throw new Error(
      `${users.length} users in different accounts have the email ${input.email}; add --account <id> (one of ${users.map((u) => u.account_id).join(', ')})`,
    );
  if (!input.password)
    throw new Error('Type the new password on standard input (one line), e.g. via a pipe');
  const user = users[0]!;
  await setPassword(ctx.db, user.id, input.password);
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      accountId: user.account_id,
    },
  };
}
