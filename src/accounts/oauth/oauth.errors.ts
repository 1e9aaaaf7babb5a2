/** Error codes of RFC 6749 section 5.2 (token endpoint). */
export type TokenErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_target'
  | 'server_error';

/**
 * A token endpoint failure. The POST endpoint renders it as RFC 6749 `{error, error_description}`,
 * the deprecated GET endpoint as `{success: false, errorMessage, errorDetails?, errorCode}`.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: TokenErrorCode,
    readonly description: string,
    readonly details: {
      /** Parameters that were required and absent (legacy `errorDetails`). */
      missing?: string[];
      /** The client authenticated with HTTP Basic: a 401 then carries a Basic challenge (RFC 6749 5.2). */
      basicChallenge?: boolean;
      status?: number;
    } = {},
  ) {
    super(description);
  }

  get status(): number {
    return (
      this.details.status ??
      (this.error === 'invalid_client' ? 401 : this.error === 'server_error' ? 500 : 400)
    );
  }
}

export const invalidRequest = (description: string, missing?: string[]) =>
  new OAuthError('invalid_request', description, { missing });
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
/** RFC 8707 2: the resource differs from the one the authorization was granted for. */
export const invalidTarget = (granted: string | null) =>
  new OAuthError(
    'invalid_target',
    granted
      ? `resource must be ${granted}, the resource this authorization was granted for`
      : 'This authorization was granted for the REST API: send no resource parameter',
  );
