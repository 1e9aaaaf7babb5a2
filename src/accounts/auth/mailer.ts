import type { AppContext } from '../../platform/context.js';

/** Whether links can be emailed (HEARTH_SMTP_URL is set). */
export const canEmail = (ctx: AppContext) => ctx.config.smtpUrl !== null;

function senderOf(ctx: AppContext): string {
  return ctx.config.email.from ?? `Hearth <no-reply@${new URL(ctx.config.publicUrl).hostname}>`;
}

/** One account email (invite, password reset) through HEARTH_SMTP_URL. Never logs the body. */
export async function sendAccountEmail(
  ctx: AppContext,
  message: { to: string; subject: string; text: string },
): Promise<void> {
  if (!ctx.smtp) throw new Error('HEARTH_SMTP_URL is not set');
  await ctx.smtp.sendMail({ from: senderOf(ctx), ...message });
}
