// What a browser engine sends as bot-detector's, tls-fingerprint's and http-headers' `proof`
// signal for a nonce: the layout of that nonce's challenge (common/page-proof.ts), as the
// server's model lays it out. tests/page-proof.e2e.ts checks the model against Chromium's own
// layout; the HTTP tests use this in place of a browser.

import { proofChallenge, PROOF_VERSION } from '../../common/page-proof'
import { layOut } from '../../src/core/page-proof'

export const proofFor = (nonce: string) => ({ ok: true as const, ms: 2, value: { v: PROOF_VERSION, boxes: layOut(proofChallenge(nonce)).flatMap((r) => r.map(Math.round)) } })
