// Secrets never reach the logs, and credentials never reach stored tasks.
//
// URLs (the request log): the query is read the way the app reads it — each `&`-separated
// pair decoded with URLSearchParams semantics ('+' is a space, percent-escapes are UTF-8) — so
// `?api%6Bey=…` (which the API accepts as `apikey`), `?apikey[]=…`, `?APIKEY=…`, `?api-key=…`
// and other spellings are all caught. A pair is redacted when its decoded name, folded
// (Unicode NFKC, lower case, array/index suffixes such as `[]` or `[0]` dropped, everything
// but letters and digits dropped), is a secret's name or contains one, or when its name or
// value holds something shaped like an API key (`ab_` + base62), whatever the name. Path
// segments holding a key-shaped string are redacted too. Names and everything else are kept
// as sent, so a log line still shows which spelling a client used.
//
// Headers (what tasks store of the request that submitted them): a deny-list, not an
// allow-list. The tools judge and show arbitrary headers — proxy headers, headers only
// automation tools add, client hints, a TLS-terminating proxy's fingerprint headers — and an
// allow-list would hide exactly the unexpected headers they exist to reveal. So a header keeps
// its name and its place in the list (header-order checks need both) and only its value is
// replaced, when the header carries credentials by name (Authorization, Proxy-Authorization,
// Cookie, X-Api-Key, X-Auth-Token, any name with a word such as token, key, secret, password,
// session, auth, credential, signature, jwt) or by shape (an auth scheme such as `Basic …` or
// `Bearer …`, a JSON Web Token, an API key).

/** Replaces a secret in a logged URL. */
export const REDACTED = 'REDACTED'
/** Replaces a credential-bearing header's value in stored evidence (the name and position stay). */
export const REDACTED_HEADER = '(redacted)'

/** Folded names (see foldName) that are secrets in a query. */
const SECRET_NAMES = new Set(['apikey', 'key', 'token', 'accesstoken', 'auth', 'authorization', 'password', 'passwd', 'secret', 'session', 'sessionid', 'sid', 'jwt', 'credential', 'credentials'])
/** Folded names containing one of these are secrets too (`x_api_key`, `refresh_token`, `client_secret`). */
const SECRET_PARTS = ['apikey', 'token', 'secret', 'password', 'passwd', 'credential']
/**
 * Something shaped like an API key (src/core/keys.ts: `ab_` + 32 random and 6 checksum base62
 * characters). Shorter runs count too: a key with a typo or cut short is still most of a key.
 */
const KEY_SHAPE = /(?<![0-9a-z])ab_[0-9a-z]{20,}/i

/**
 * Percent-decoding as URLSearchParams does it (application/x-www-form-urlencoded): '+' is a
 * space, `%XX` are bytes read as UTF-8 (bad sequences become U+FFFD), and a '%' not followed by
 * two hex digits stays as it is.
 */
export function formDecode(s: string, plusIsSpace = true): string {
  if (!/[%+]/.test(s)) return s
  const bytes: number[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < s.length; ) {
    const c = s[i]!
    if (c === '+' && plusIsSpace) {
      bytes.push(0x20)
      i++
    } else if (c === '%' && /^[0-9a-f]{2}$/i.test(s.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16))
      i += 3
    } else {
      const ch = String.fromCodePoint(s.codePointAt(i)!)
      bytes.push(...encoder.encode(ch))
      i += ch.length
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes))
}

/** A query name reduced to what decides whether it names a secret. */
export function foldName(decoded: string): string {
  return decoded
    .normalize('NFKC')
    .toLowerCase()
    .replace(/(\[[^\]]*\])+$/, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
}

export function isSecretQueryName(decoded: string): boolean {
  const f = foldName(decoded)
  return SECRET_NAMES.has(f) || SECRET_PARTS.some((p) => f.includes(p))
}

/** Whether a (raw or decoded) string holds something shaped like an API key, also when encoded once or twice. */
export function holdsKeyShape(raw: string): boolean {
  if (KEY_SHAPE.test(raw)) return true
  const once = formDecode(raw)
  return KEY_SHAPE.test(once) || KEY_SHAPE.test(formDecode(once))
}

function redactPair(pair: string): string {
  if (pair === '') return pair
  const eq = pair.indexOf('=')
  const rawName = eq === -1 ? pair : pair.slice(0, eq)
  const rawValue = eq === -1 ? '' : pair.slice(eq + 1)
  if (holdsKeyShape(rawName)) return REDACTED
  if (eq === -1) return pair
  if (isSecretQueryName(formDecode(rawName)) || holdsKeyShape(rawValue)) return `${rawName}=${REDACTED}`
  return pair
}

/** A path with its query (and fragment, if any) as it may be logged. */
export function redactUrl(pathAndQuery: string): string {
  // Most lines: a path with no query, fragment or escapes. Such a path's segments decode to
  // themselves, and a key shape cannot span a '/', so one test of the whole says it all.
  if (!PLAIN_PATH_ODD.test(pathAndQuery) && !KEY_SHAPE.test(pathAndQuery)) return pathAndQuery
  return redactUrlSlow(pathAndQuery)
}

/** What takes a path past redactUrl's plain case: a query, a fragment, an escape, a '+'. */
const PLAIN_PATH_ODD = /[?#%+]/

function redactUrlSlow(pathAndQuery: string): string {
  const hash = pathAndQuery.indexOf('#')
  const fragment = hash === -1 ? '' : pathAndQuery.slice(hash)
  const beforeHash = hash === -1 ? pathAndQuery : pathAndQuery.slice(0, hash)
  const q = beforeHash.indexOf('?')
  const path = q === -1 ? beforeHash : beforeHash.slice(0, q)
  const safePath = path
    .split('/')
    .map((segment) => (holdsKeyShape(formDecode(segment, false)) ? REDACTED : segment))
    .join('/')
  if (q === -1) return safePath + fragment
  const query = beforeHash.slice(q + 1)
  return `${safePath}?${query.split('&').map(redactPair).join('&')}${fragment}`
}

/** Words of a header name (split at '-', '_' and '.') that make its value a credential. */
const CREDENTIAL_WORDS = new Set([
  'authorization', 'auth', 'token', 'key', 'apikey', 'secret', 'password', 'passwd', 'credential', 'credentials',
  'cookie', 'cookie2', 'session', 'sessionid', 'jwt', 'signature', 'dpop', 'otp',
])
/** Header names that are credentials though no word says so. */
const CREDENTIAL_NAMES = new Set(['private-token', 'x-amz-security-token', 'x-goog-api-key'])
/** Parts of a name that are credentials inside one word (`x-apikey`, `x-accesstoken`, `x-clientsecret`). */
const CREDENTIAL_PARTS = ['apikey', 'token', 'secret', 'password', 'passwd', 'credential', 'cookie', 'session']
/** An HTTP authentication scheme followed by its credentials (RFC 9110 §11), in any header. */
const AUTH_SCHEME = /^\s*(bearer|basic|digest|negotiate|ntlm|token|apikey|hoba|mutual|vapid|dpop|aws4-hmac-sha256)\s+\S/i
/** A JSON Web Token (header and payload are base64url JSON objects, so they start with eyJ). */
const JWT_SHAPE = /(?<![\w-])eyJ[\w-]{5,}\.eyJ[\w-]{5,}\./

/** Whether a request header (name lower- or mixed-case) carries credentials, by its name or its value. */
export function isCredentialHeader(name: string, value: string): boolean {
  return credentialName(name) || AUTH_SCHEME.test(value) || JWT_SHAPE.test(value) || holdsKeyShape(value)
}

/** Names seen, and whether the name alone makes a header a credential (every request repeats the same few). */
const NAME_VERDICTS = new Map<string, boolean>()
const NAME_VERDICTS_MAX = 4096

function credentialName(name: string): boolean {
  const known = NAME_VERDICTS.get(name)
  if (known !== undefined) return known
  const n = name.toLowerCase()
  const joined = n.replace(/[-_.]/g, '')
  const verdict = CREDENTIAL_NAMES.has(n) || n.split(/[-_.]/).some((w) => CREDENTIAL_WORDS.has(w)) || CREDENTIAL_PARTS.some((p) => joined.includes(p))
  // Bounded: names come from clients. Past the bound, new names are judged each time.
  if (NAME_VERDICTS.size < NAME_VERDICTS_MAX) NAME_VERDICTS.set(name, verdict)
  return verdict
}

/** The value to store for a request header: the value itself, or REDACTED_HEADER for credentials. */
export function redactHeaderValue(name: string, value: string): string {
  return isCredentialHeader(name, value) ? REDACTED_HEADER : value
}
