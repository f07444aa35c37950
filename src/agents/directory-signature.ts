// Whether a key directory's response is signed by the key that signed the request
// (draft-meunier-http-message-signatures-directory: each key signs the directory response over
// the request's authority, `"@authority";req`, tag "http-message-signatures-directory"). Told to
// agent builders in the conformance report; not required for a request to verify.

import { thumbprint, verifyEd25519, type OkpJwk } from './jwk'
import { isInnerList, param, parseDictionary, serializeMember, serializeParams } from './structured-fields'

export const DIRECTORY_TAG = 'http-message-signatures-directory'

/** The Signature-Input and Signature the directory answered with (cut to a bound), if any. */
export interface DirectorySignatureFields {
  input: string
  signature: string
}

export async function directorySignedBy(fields: DirectorySignatureFields | undefined, directoryUrl: string, key: OkpJwk, nowSeconds: number): Promise<boolean> {
  if (!fields) return false
  const inputs = parseDictionary(fields.input)
  const sigs = parseDictionary(fields.signature)
  if (!inputs || !sigs) return false
  const keyid = thumbprint(key)
  const authority = new URL(directoryUrl).host.toLowerCase()
  for (const [label, list] of inputs) {
    if (!isInnerList(list) || param(list.params, 'keyid') !== keyid || param(list.params, 'tag') !== DIRECTORY_TAG) continue
    const expires = param(list.params, 'expires')
    if (typeof expires === 'number' && expires < nowSeconds) continue
    const sent = sigs.find(([k]) => k === label)?.[1]
    if (!sent || isInnerList(sent) || typeof sent.value !== 'object' || !('bytes' in sent.value)) continue
    const lines: string[] = []
    for (const c of list.items) {
      // Only the request's authority is defined for a directory response's signature.
      if (c.value !== '@authority') return false
      lines.push(`${serializeMember(c)}: ${authority}`)
    }
    lines.push(`"@signature-params": (${list.items.map(serializeMember).join(' ')})${serializeParams(list.params)}`)
    if (await verifyEd25519(key, new TextEncoder().encode(lines.join('\n')), sent.value.bytes)) return true
  }
  return false
}
