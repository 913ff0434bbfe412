// OAuth's own error vocabulary (RFC 6749, 6750, 7591, 8707): the authorization server's faces answer
// with these codes, so the domain raises them as such, each with a description that says what to do.
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'server_error'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'invalid_token';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** The HTTP status a JSON endpoint answers with. */
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
