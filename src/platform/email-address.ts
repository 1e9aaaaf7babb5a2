/**
 * The shape Hearth asks of an email address it is given (admin CLI, configuration): a mailbox,
 * one `@`, a domain. The domain may be a single label such as `localhost`, which the first-start
 * owner's default address has; the mail server, not this check, decides what it can deliver.
 */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@<>]+@[^\s@<>]+$/.test(value);
}
