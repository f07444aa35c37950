// The browser-fingerprint visitor id: a hash per FingerprintJS component and one over the
// stable ones, and the check that every component read the same twice. Noise is a finding,
// not an identity: a component that reads differently twice (canvas or audio noise from
// Safari 17+, Firefox or an extension) is reported and left out of the visitor hash; Brave's
// session-stable farbling is caught by the canvas and audio tools' known-answer tests instead.

import { hashHex, hashValue } from '../../common/hash'
import { whyMissing, type SignalResult } from '../../common/signal'
import { COMPONENT_NAMES, type BrowserFingerprintSignals, type ComponentName } from '../../common/signals/browser-fingerprint'
import { checkOn } from './define'

interface ComponentOutcome {
  hash: string | null
  stable: boolean
  inVisitorId: boolean
  error?: string
}

export interface Fingerprint {
  visitorId: string
  components: Record<string, ComponentOutcome>
  unstable: ComponentName[]
  excluded: ComponentName[]
}

/**
 * Per-component hashes and the visitor id. Stable values and stable absences ("unsupported",
 * "blocked": the same on every visit) count; noise, timeouts and failures do not.
 */
export function fingerprintOf(signals: Partial<Pick<BrowserFingerprintSignals, ComponentName>>): Fingerprint {
  const components: Record<string, ComponentOutcome> = {}
  const unstable: ComponentName[] = []
  const excluded: ComponentName[] = []
  const parts: string[] = []
  for (const name of COMPONENT_NAMES) {
    const s = signals[name] as SignalResult<{ value: unknown; again?: unknown }> | undefined
    let out: ComponentOutcome
    if (s?.ok) {
      const stable = s.value.again === undefined
      out = { hash: hashValue(s.value.value), stable, inVisitorId: stable }
      if (!stable) unstable.push(name)
    } else {
      const kind = s ? s.error.kind : 'error'
      const steady = kind === 'unsupported' || kind === 'blocked'
      out = { hash: steady ? hashValue(`${kind}`) : null, stable: kind !== 'farbled', inVisitorId: steady, error: whyMissing(s) }
      if (kind === 'farbled') unstable.push(name)
    }
    if (out.inVisitorId) parts.push(`${name}:${out.hash}`)
    else excluded.push(name)
    components[name] = out
  }
  return { visitorId: hashHex(parts.join('|')), components, unstable, excluded }
}

/** The visitor id of a fingerprint, or null when no component went into it. */
export function identityOf(fp: Pick<Fingerprint, 'visitorId' | 'excluded'>): string | null {
  return fp.excluded.length < COMPONENT_NAMES.length ? fp.visitorId : null
}

/**
 * The visitor id the judge reports for these signals, as stored in the task's `fingerprint`
 * and counted for fp-commonness; null when no component went into it (nothing sent, every
 * read timed out or failed): that hash of nothing would be shared by every such submission.
 */
export function visitorIdOf(signals: Partial<Pick<BrowserFingerprintSignals, ComponentName>>): string | null {
  return identityOf(fingerprintOf(signals))
}

export const fpStability = checkOn<BrowserFingerprintSignals>()({
  id: 'fp-stability',
  name: 'Components read the same twice',
  found: 'components read differently twice',
  source: 'client',
  why: 'Every component is read twice in the same page. A real browser returns identical canvas pixels, audio samples and navigator values; per-read noise (Safari 17+ private browsing, Firefox’s canvas randomisation, anti-fingerprinting extensions) does not. Unstable components are reported as farbling and left out of the visitor hash. No false positive is known for canvas and audio on an idle page; a window resized between reads can change the screen component.',
  expected: 'every component identical on both reads',
  needs: [],
  judge: (_, { raw }) => {
    const fp = fingerprintOf(raw)
    return {
      verdict: fp.unstable.length ? 'warn' : 'pass',
      observed: fp.unstable.length
        ? `anti-fingerprinting detected, noise added per read (farbling): ${fp.unstable.map((n) => `${n} (${raw[n]?.ok ? 'two reads differ' : whyMissing(raw[n])})`).join(', ')}; left out of the visitor id`
        : `${COMPONENT_NAMES.length - fp.excluded.length} components identical on both reads; visitor id ${fp.visitorId}`,
    }
  },
})
