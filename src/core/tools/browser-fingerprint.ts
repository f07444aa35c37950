// browser-fingerprint: the FingerprintJS component families, each read twice by the page, a
// hash per component and a visitor hash over the stable ones (src/checks/visitor-id.ts), and
// the consistency checks a fingerprint allows: the same values in an iframe and a worker,
// navigator against the User-Agent and client-hint headers, the audio sum against the claimed
// engine, time zone against the clock, fonts and GPU against the claimed OS; and, from a count
// over stored tasks that the service makes before judging (JudgeContext.fingerprintSeen), how
// common the visitor id is.
// The math component is hashed but not judged: V8's results are not fixed across versions
// (Node 20's V8 and Chromium 156 differ in Math.pow and Math.log on the same machine, the
// latter agreeing with glibc), so there is no reliable per-engine reference to compare with.

import { Type } from '@sinclair/typebox'
import { Bool, NStr, Str } from '../../../common/shorthands'
import { BrowserFingerprintSignals } from '../../../common/signals/browser-fingerprint'
import { fingerprintOf, fpStability, identityOf, visitorIdOf } from '../../checks/visitor-id'
import { countedCommonness, fpCommonness } from '../../checks/visitor-commonness'
import { fpIframeConsistency, fpWorkerConsistency } from '../../checks/fingerprint-scopes'
import { fpPlatform, fpUaClientHints, fpUaHeader, fpVendor } from '../../checks/navigator-claims'
import { fpArchitecture, fpDeviceMemoryHint, fpLanguage, fpMediaHints } from '../../checks/hint-headers'
import { fpPlugins } from '../../checks/pdf-plugins'
import { fpHardware, fpPrivacyMode, fpStorage, fpTimezone } from '../../checks/profile-values'
import { fpAudioEngine, fpFontsOs, fpGpuOs, fpSoftwareRenderer } from '../../checks/platform-fit'
import { defineTool } from './types'

const ComponentSummary = Type.Object({
  hash: NStr(1000),
  stable: Bool,
  inVisitorId: Bool,
  error: Type.Optional(Str(1000)),
})

export const BrowserFingerprintSections = Type.Object({
  fingerprint: Type.Object({
    visitorId: Type.String({ description: 'Hash of the stable components’ hashes; the same browser gives the same id on every visit until it changes.' }),
    components: Type.Record(Type.String(), ComponentSummary),
    unstable: Type.Array(Type.String(), { description: 'Components that read differently twice in one page: noise, reported as farbling.' }),
    excluded: Type.Array(Type.String(), { description: 'Components left out of visitorId (unstable, timed out, failed).' }),
    commonness: Type.Union(
      [
        Type.Object({
          tasks: Type.Integer({ description: 'Stored tasks of the last 90 days with this visitorId (at most 1000 counted), this address’s own included.' }),
          addresses: Type.Integer({ description: 'Distinct client addresses among them other than the submitter’s.' }),
        }),
        Type.Null(),
      ],
      { description: 'How common visitorId is among stored tasks (fp-commonness); null when not counted.' },
    ),
  }),
})

export const browserFingerprint = defineTool({
  id: 'browser-fingerprint',
  signals: BrowserFingerprintSignals,
  sections: BrowserFingerprintSections,
  identity: visitorIdOf,
  checks: [
    [fpStability, 30],
    [fpIframeConsistency, 30],
    [fpWorkerConsistency, 35],
    [fpUaHeader, 40],
    [fpPlatform, 25],
    [fpUaClientHints, 30],
    [fpVendor, 25],
    [fpArchitecture, 20],
    [fpDeviceMemoryHint, 25],
    [fpLanguage, 20],
    [fpMediaHints, 15],
    [fpTimezone, 25],
    [fpPlugins, 20],
    [fpHardware, 15],
    [fpPrivacyMode, 6],
    [fpSoftwareRenderer, 20],
    [fpGpuOs, 30],
    [fpFontsOs, 16],
    [fpAudioEngine, 20],
    [fpStorage, 6],
    [fpCommonness, 10],
  ],
  addSections(s, _judged, _server, ctx) {
    const fp = fingerprintOf(s)
    return { fingerprint: { ...fp, commonness: countedCommonness(identityOf(fp), ctx.fingerprintSeen) } }
  },
})
