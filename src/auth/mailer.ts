import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../context.js';

const transports = new WeakMap<AppContext, Transporter>();

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
  if (!ctx.config.smtpUrl) throw new Error('HEARTH_SMTP_URL is not set');
  let transport = transports.get(ctx);
  if (!transport) transports.set(ctx, (transport = nodemailer.createTransport(ctx.config.smtpUrl)));
  await transport.sendMail({ from: senderOf(ctx), ...message });
}
