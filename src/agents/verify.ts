// A request's Web Bot Auth outcome (issue 60): the signature read (src/agents/signature.ts), its
// directory looked up (src/agents/directories.ts), the key found by directory URL and key id
// together — the key whose RFC 7638 thumbprint is the keyid — and the Ed25519 signature
// verified. Unsigned requests cost a header lookup and nothing else.

import type { AgentOutcome } from '../core/agent-outcome'
import { REFETCH_AFTER_SECONDS, type DirectoryLookup } from './directories'
import { asEd25519, thumbprint, verifyEd25519 } from './jwk'
import { readSignature, type SignedRequest } from './signature'
import { directorySignedBy } from './directory-signature'

export interface AgentVerifier {
  /** Null when the request carries none of Signature, Signature-Input, Signature-Agent. */
  verify(req: SignedRequest, now: Date): Promise<AgentOutcome | null>
}

/** The operator's pinned directories (AGENT_DIRECTORIES): directory URL → the agent's name. */
export type PinnedDirectories = ReadonlyMap<string, string>

/** The request as the verifier reads it. */
export function signedRequestOf(request: Request): SignedRequest {
  return { method: request.method, url: request.url, header: (n) => request.headers.get(n) }
}

/** Whether a request carries any of the headers (the common case, absent, is this one test). */
export function mayBeSigned(headers: Headers): boolean {
  return headers.has('signature-input') || headers.has('signature') || headers.has('signature-agent')
}

export function createAgentVerifier(deps: { directories: DirectoryLookup; pinned?: PinnedDirectories }): AgentVerifier {
  const pinned = deps.pinned ?? new Map()
  return {
    async verify(req, now) {
      const read = readSignature(req, Math.floor(now.getTime() / 1000))
      if (read.kind === 'unsigned') return null
      if (read.kind === 'refused') {
        const { kind: _, ...rest } = read
        return { ...rest, ...nameOf(rest.directory, pinned) }
      }
      const c = read.candidate
      const ids = { label: c.label, keyid: c.keyid, directory: c.directory, created: c.created, expires: c.expires, ...nameOf(c.directory, pinned) }
      let dir = await deps.directories.lookup(c.directory, now)
      // A key the stored reading lacks may be a new one (rotation): that reading is fetched again
      // once it is a minute old, budget allowing.
      const before = new Date(now.getTime() - REFETCH_AFTER_SECONDS * 1000)
      if (dir.ok && dir.fetchedAt !== undefined && dir.fetchedAt < before.getTime() && !hasKey(dir.keys, c.keyid)) {
        const again = await deps.directories.lookup(c.directory, now, { refetchBefore: before })
        if (again.ok) dir = again
      }
      if (!dir.ok) {
        const budget = 'budget' in dir
        const seen = 'contentType' in dir && dir.contentType !== undefined ? { directoryContentType: dir.contentType } : {}
        return { state: 'unverified', code: budget ? 'budget' : 'directory', reason: budget ? dir.reason : `the key directory could not be read: ${dir.reason}`, ...ids, conformance: { ...c.conformance, ...seen } }
      }
      const conformance = { ...c.conformance, directoryContentType: dir.contentType, keysAsSet: dir.asSet }
      const keys = dir.keys.map(asEd25519).filter((k) => k !== null)
      const key = keys.find((k) => thumbprint(k) === c.keyid)
      if (!key) {
        const byKid = keys.find((k) => k.kid === c.keyid)
        if (byKid) return { state: 'invalid', code: 'keyid-not-thumbprint', reason: `the keyid is the directory key's kid, not its RFC 7638 thumbprint (${thumbprint(byKid)})`, ...ids, conformance: { ...conformance, kidIsThumbprint: false } }
        return { state: 'invalid', code: 'unknown-key', reason: `the directory has no Ed25519 key whose thumbprint is the keyid (it has ${keys.length})`, ...ids, conformance }
      }
      const withKid = { ...conformance, ...(key.kid !== undefined ? { kidIsThumbprint: key.kid === c.keyid } : {}), directorySigned: await directorySignedBy(dir.signature, c.directory, key, Math.floor(now.getTime() / 1000)) }
      if (!(await verifyEd25519(key, c.base, c.signature))) return { state: 'invalid', code: 'bad-signature', reason: "the signature does not verify with the directory's key: the request was altered, or signed with another key", ...ids, conformance: withKid }
      return { state: 'verified', ...ids, conformance: withKid }
    },
  }
}

function hasKey(keys: readonly unknown[], keyid: string): boolean {
  return keys.some((k) => {
    const e = asEd25519(k)
    return e !== null && thumbprint(e) === keyid
  })
}

function nameOf(directory: string | undefined, pinned: PinnedDirectories): { agent?: string; pinned?: boolean } {
  if (!directory) return {}
  const name = pinned.get(directory)
  return name !== undefined ? { agent: name, pinned: true } : { agent: new URL(directory).host, pinned: false }
}
