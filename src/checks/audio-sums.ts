// Known values of the FingerprintJS audio sum (OfflineAudioContext, 10 kHz triangle through a
// DynamicsCompressor, Σ|sample| over frames 4500..4999) by engine family. Informative, not a
// whitelist: new engine versions and CPUs add values, so an unknown sum only warns, and only a
// sum that belongs to another engine's cluster counts against the User-Agent.
//
// Provenance (no values were measured by us except where marked):
// - CreepJS, src/audio/index.ts, table `KnownAudio` (MIT, github.com/abrahamjuliot/creepjs),
//   keyed by DynamicsCompressor reduction: Blink 124.0434…/124.0437… (Windows, macOS, Android;
//   some WebKit builds too), 124.0807… (Android/Linux), Gecko 35.7383…/35.7499…, WebKit
//   35.1089….
// - The CreepJS UI labels 124.04347527516074 "Chrome on Windows/Android" and
//   35.7383295930922 "Firefox on Windows"; FingerprintJS's write-up
//   (https://fingerprint.com/blog/audio-fingerprinting/) shows the same Chrome value.
// - Measured here: Debian's headless Chromium 156 on x86-64 Linux with SwiftShader (see the
//   e2e test tests/audio-fingerprint.e2e.ts).

import { ENGINE_NAME } from '../../common/engine-errors'
import type { Engine } from '../../common/user-agent'
import type { PageEngine } from './page-engine'

export interface AudioCluster {
  id: string
  /** Engines known to produce sums in this cluster. */
  engines: readonly Engine[]
  /** Inclusive range of the cluster. */
  min: number
  max: number
  /** Exact values seen in the wild. */
  known: readonly number[]
  label: string
}

export const AUDIO_CLUSTERS: readonly AudioCluster[] = [
  {
    id: 'blink-desktop',
    engines: ['blink', 'webkit'],
    min: 124.0434,
    max: 124.0438,
    known: [124.04347527516074, 124.04347518575378, 124.04344968475198, 124.0434488439787, 124.04344884395687, 124.04347503720783, 124.04347657808103, 124.04347730590962, 124.04375314689969, 124.0434485301812, 124.0434496849557, 124.043453265891, 124.04345734833623, 124.04345808873768,
      // Measured here: Debian's headless Chromium 156, Linux x86-64.
      124.04347776696522],
    label: 'Blink on Windows, macOS, Android and x86 Linux (and a few WebKit builds)',
  },
  {
    id: 'blink-linux',
    engines: ['blink'],
    min: 124.0807,
    max: 124.0808,
    known: [124.080722568091, 124.08072256811283, 124.08072766105033, 124.08072787802666, 124.08072787804849, 124.08074500028306, 124.0807470110085, 124.08075528279005, 124.08075643483608],
    label: 'Blink on Linux and Android',
  },
  {
    id: 'gecko',
    engines: ['gecko'],
    min: 35.738,
    max: 35.7501,
    known: [35.7383295930922, 35.73833402246237, 35.74996031448245, 35.7499681673944, 35.749968223273754, 35.74996626004577],
    label: 'Gecko (Firefox)',
  },
  {
    id: 'webkit',
    engines: ['webkit'],
    min: 35.1089,
    max: 35.109,
    known: [35.10892717540264, 35.10892752557993, 35.10893232002854, 35.10893253237009],
    label: 'WebKit (Safari)',
  },
]

export interface AudioClassification {
  cluster: AudioCluster | null
  /** The sum equals a known value (to 1e-9): a common, unmodified configuration. */
  exact: boolean
}

export function classifyAudioSum(sum: number): AudioClassification {
  const cluster = AUDIO_CLUSTERS.find((c) => sum >= c.min && sum <= c.max) ?? null
  const exact = !!cluster && cluster.known.some((k) => Math.abs(k - sum) < 1e-9)
  return { cluster, exact }
}

export interface AudioEngineVerdict {
  verdict: 'pass' | 'warn' | 'fail'
  reason: string
}

/**
 * Whether a sum fits the engine the User-Agent claims. Fails only when the sum sits in a
 * cluster no build of the claimed engine is known to produce, and the clusters are far apart
 * (Blink ≈ 124, Gecko and WebKit ≈ 35): that is another engine behind the claimed one.
 */
export function audioFitsEngine(sum: number, engine: Engine): AudioEngineVerdict {
  const { cluster, exact } = classifyAudioSum(sum)
  if (!cluster) return { verdict: 'warn', reason: `${sum} is in no known cluster: a new engine build or CPU, or a modified audio stack` }
  if (engine === 'unknown') return { verdict: 'pass', reason: `in the cluster of ${cluster.label}; the User-Agent names no engine to compare with` }
  if (cluster.engines.includes(engine)) return { verdict: 'pass', reason: `${exact ? 'a known value' : 'inside the cluster'} of ${cluster.label}` }
  return { verdict: 'fail', reason: `in the cluster of ${cluster.label}, which no ${engine} build is known to produce` }
}

const RANK = { pass: 0, warn: 1, fail: 2 } as const

/**
 * The sum against the engine the User-Agent claims and the engine the page runs on (its error
 * messages, ./page-engine.ts): fails when it belongs to another engine than either. Another
 * than the claimed one is a User-Agent lying about the engine; another than the running one
 * is audio that was replaced. The expected text names both and how the running one was told.
 */
export function audioAgainstEngines(sum: number, claimed: Engine, page: PageEngine): AudioEngineVerdict & { expected: string } {
  const byClaim = audioFitsEngine(sum, claimed)
  const byPage = page.engine === 'unknown' ? null : audioFitsEngine(sum, page.engine)
  const verdict = byPage && RANK[byPage.verdict] > RANK[byClaim.verdict] ? byPage.verdict : byClaim.verdict
  let reason = byClaim.reason
  if (byPage?.verdict === 'fail') reason = `${byPage.reason}, on a page that runs on ${ENGINE_NAME[page.engine]}: the audio was replaced`
  else if (byClaim.verdict === 'fail' && byPage) reason = `${byClaim.reason}; it fits ${ENGINE_NAME[page.engine]}, the engine the page runs on: the User-Agent lies about the engine`
  const engines = [
    claimed !== 'unknown' ? `${claimed}, the engine the User-Agent claims` : null,
    page.engine !== 'unknown' && page.engine !== claimed ? `${page.engine}, the engine the page runs on` : null,
  ].filter((x): x is string => x !== null)
  return { verdict, reason, expected: `a sum known for ${engines.length ? engines.join(', and ') : 'a known engine'} (${page.basis})` }
}
