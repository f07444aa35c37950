// What a person reads in a report is said in plain words. The checks' texts are written for the
// API's readers too (they are stored and served byte for byte, src/core/check-text.ts), and
// name the service's settings (TLS_PORT), its source files and the issues that changed them;
// the pages show them without those: a setting becomes what it is ("the HTTPS listener"), a
// parenthesis that only names a setting, a file or an issue goes, and a value is shown as text,
// not as JSON (`none` for null). The operator's part is said once per page, with a link to the
// docs (OPERATOR_NOTE in report.tsx). The API keeps the texts as they are.

/** The service's settings the check texts name, and what each is in plain words. */
export const SETTING_WORDS: Readonly<Record<string, string>> = {
  TLS_PORT: "the service's HTTPS listener",
  TLS_CERT_FILE: "the service's certificate",
  TLS_KEY_FILE: "the service's certificate",
  TLS_FINGERPRINT_HEADERS: "a trusted proxy's fingerprint headers",
  TRUSTED_PROXIES: 'a trusted proxy',
  DNS_ZONE: "the service's DNS zone",
  DNS_PORT: "the service's DNS server",
  STUN_PORT: "the service's STUN/TURN listener",
  IPDB_DIR: "the service's IP database",
  DATA_DIR: "the service's data directory",
  ADMIN_TOKEN: 'the operator API',
}

/** A setting's name (only the service's own: a cipher suite such as TLS_AES_128_GCM_SHA256 is left alone). */
const SETTING = new RegExp(`\\b(?:${Object.keys(SETTING_WORDS).join('|')})\\b`)
const SETTINGS = new RegExp(SETTING.source, 'g')

/** Does this text name one of the service's settings (so that its page says what the operator can set)? */
export function namesSetting(text: string): boolean {
  return SETTING.test(text)
}
/** A path into the service's own source tree. */
const PATH = /\b(?:src|db|probes|common|tests|docs)\/[\w./-]+\.(?:ts|tsx|json|md)\b/
/** An issue's number, e.g. "issue 10", "issues 10 and 12". */
const ISSUE = /\bissues? \d+(?:(?:, | and )\d+)*/

/** Is this parenthesis (its inner text) only there for the service's internals? */
function internalAside(inner: string): boolean {
  const first = inner.split(/[,;:=]/)[0]!.trim()
  if (SETTING.test(first) && first.replace(SETTINGS, '').trim() === '') return true
  if (ISSUE.test(inner) && inner.replace(ISSUE, '').replace(/[\s,;:]/g, '') === '') return true
  if (PATH.test(inner)) {
    // "(table in src/checks/audio-sums.ts)", "(src/core/tls-families.ts)": nothing else in it.
    const rest = inner.replace(new RegExp(PATH.source, 'g'), '').replace(/\b(?:table |listed |see |defined )?in\b|\bsee\b/g, '')
    return rest.replace(/[\s,;:]/g, '') === ''
  }
  return false
}

/** `text` for a person: no setting names, source paths or issue numbers. */
export function plainWords(text: string): string {
  let out = text
  // A parenthesis that only names internals goes whole: "(TLS_PORT)", "(DNS_ZONE)", "(issue 10)".
  out = out.replace(/\s*\(([^()]*)\)/g, (all, inner: string) => (internalAside(inner) ? '' : all))
  // A clause that names a source file goes: "…, WebKit ≈ 35.11; table in src/checks/audio-sums.ts)".
  out = out.replace(new RegExp(`\\s*[;,]\\s*[^;,()]*${PATH.source}`, 'g'), '')
  out = out.replace(new RegExp(`\\s*\\([^()]*${PATH.source}[^()]*\\)`, 'g'), '')
  out = out.replace(new RegExp(`\\s*${PATH.source}`, 'g'), '')
  // "(…, issue 10)" or "…; issue 10": the number goes with its separator.
  out = out.replace(new RegExp(`\\s*[;,]?\\s*\\(?${ISSUE.source}\\)?`, 'g'), '')
  // The certificate's two files are one thing to a person.
  out = out.replace(/\bTLS_CERT_FILE(?: and |\/)TLS_KEY_FILE are set\b/g, 'its operator gave it a certificate')
  out = out.replace(/\bTLS_CERT_FILE(?: and |\/)TLS_KEY_FILE\b/g, "the service's certificate")
  // A setting named inside a sentence: what it is. "TLS_PORT=off" is the listener being off.
  out = out.replace(new RegExp(`(${SETTING.source})=off`, 'g'), (_, name: string) => `${SETTING_WORDS[name] ?? 'a setting'} switched off`)
  out = out.replace(new RegExp(`(${SETTING.source})=\\S+`, 'g'), (_, name: string) => SETTING_WORDS[name] ?? 'a setting')
  out = out.replace(SETTINGS, (name) => SETTING_WORDS[name] ?? name)
  // The internal field names of a task's results.
  out = out.replace(/\bresults\.tested (?:is )?false\b/g, 'marked as not tested')
  return out.replace(/ {2,}/g, ' ').replace(/\s+([.,;:)])/g, '$1').replace(/\(\s*\)/g, '')
}

const MAX = 400

/**
 * An observed value as a person reads it: a string as it is, null as "none", a list as its
 * items, an object as "name: value" pairs; never JSON. Cut at 400 characters.
 */
export function plainValue(v: unknown): string {
  const s = valueText(v, 0)
  return s.length > MAX ? `${s.slice(0, MAX)}…` : s
}

/**
 * A value some code turned into JSON text (a uniqueness attribute's `shown`, an observed
 * string), as text: parsed when it parses, else its quotes and braces taken out (a value cut
 * short no longer parses); a lone `null` word is "none".
 */
export function plainText(s: string): string {
  if (/^\s*[[{]/.test(s)) {
    try {
      return valueText(JSON.parse(s), 0)
    } catch {
      return s
        .replace(/"((?:[^"\\]|\\.)*)"\s*:/g, '$1: ')
        .replace(/(?<!\\)"/g, '')
        .replace(/\\"/g, '"')
        .replace(/[{[]/g, '(')
        .replace(/[}\]]/g, ')')
        .replace(/,(?=\S)/g, ', ')
    }
  }
  return s.replace(/(?<![\w-])null(?![\w-])/g, 'none')
}

function valueText(v: unknown, depth: number): string {
  if (v === null || v === undefined) return 'none'
  if (typeof v === 'string') return v === '' ? '(empty)' : depth ? v : plainText(v)
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v)
  if (Array.isArray(v)) {
    if (!v.length) return 'none'
    const items = v.map((x) => valueText(x, depth + 1)).join(', ')
    return depth ? `[${items}]` : items
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
    if (!entries.length) return 'none'
    const pairs = entries.map(([k, x]) => `${k}: ${valueText(x, depth + 1)}`).join('; ')
    return depth ? `(${pairs})` : pairs
  }
  return String(v)
}

/** What a scan of person-facing text looks for (tests/person-text.test.ts, tests/run.e2e.ts). */
export const INTERNAL_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['a setting name', /\b(?:TLS_PORT|TLS_CERT_FILE|TLS_KEY_FILE|TLS_FINGERPRINT_HEADERS|TRUSTED_PROXIES|DNS_ZONE|DNS_PORT|STUN_PORT|IPDB_DIR|DATA_DIR|ADMIN_TOKEN|DATABASE_URL)\b/],
  ['a source path', /\b(?:src|db|probes|common|tests)\/[\w./-]+\.(?:ts|tsx|json)\b/],
  ['an issue number', /\bissues? \d+\b/i],
  ['a raw null', /(?<![\w-])null(?![\w-])/],
  ['raw JSON', /[{[]\s*"[^"]*"\s*:/],
  ['an internal field', /\bresults\.[a-z_]+/],
]
