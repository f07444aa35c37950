// Secrets never reach the logs: the apikey query parameter is replaced before a URL is logged.

const SECRET_PARAMS = /([?&](?:apikey|api_key|key|token|access_token)=)[^&#]*/gi

export function redactUrl(pathAndQuery: string): string {
  return pathAndQuery.replace(SECRET_PARAMS, '$1REDACTED')
}
