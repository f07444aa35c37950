// The picture a tool's report shows above its checks, where one says more than the table:
// drawn on the server from what the page measured and the task stored (SVG, or the page's own
// drawings as data: images, which the pages' Content-Security-Policy allows in img-src).
// Tools without one get nothing.

import { signalValue, type SignalResult } from '../../../common/signal'
import type { AudioPlot } from '../../../common/signals/audio-fingerprint'
import type { Canvas2dHash, CanvasPicture, WebglSummary } from '../../../common/signals/canvas-fingerprint'
import type { ScreenMetrics, WindowMetrics } from '../../../common/signals/screen-display'
import type { ToolId } from '../../../common/tools'
import type { ReportResults } from '../report-results'
import { dnsLeakMap, ipLeakMap, webrtcLeakMap } from '../../core/pictures/address-map'
import { AddressesPicture } from './addresses'
import { AudioPicture } from './audio'
import { BotFindings } from './bot-findings'
import { CanvasPictures } from './canvas'
import { FontsPicture } from './fonts'
import { ScreenPicture } from './screen'
import { networkCard, verdictGauge, zoneBand, type LookupPart } from '../../core/pictures/glance'
import { tlsHello } from '../../core/pictures/tls-hello'
import { tlsEvidenceOf } from '../../checks/tls-views'
import { KIND_TITLES, KINDS, kindOf } from './bot-findings'
import { NetworkCardPicture, TlsHelloPicture, VerdictGaugePicture, ZoneBandPicture } from './glance'

type Signals = Record<string, SignalResult<unknown> | undefined>

/** A signal's value from the stored results (validated against the tool's schema when judged). */
export function signalIn<T>(results: ReportResults, name: string): T | undefined {
  const signals = (results.signals ?? {}) as Signals
  return signalValue(signals[name] as SignalResult<T> | undefined)
}

/** bot-detector's score and verdict on its gauge, with the checks of each kind of finding. */
function BotVerdict(props: { results: ReportResults }): JSX.Element {
  const { results } = props
  const groups = KINDS.map((kind) => {
    const mine = results.checks.filter((c) => kindOf(c) === kind)
    const n = (v: string) => mine.filter((c) => c.verdict === v).length
    return { title: KIND_TITLES[kind], fail: n('fail'), warn: n('warn'), pass: n('pass'), na: n('na') }
  })
  const verdict = typeof results.verdict === 'string' ? results.verdict : ''
  return <VerdictGaugePicture g={verdictGauge(results.summary.score, verdict, groups)} />
}

export function ToolPicture(props: { tool: ToolId; results: ReportResults }): JSX.Element {
  const { results } = props
  switch (props.tool) {
    case 'screen-display': {
      const screen = signalIn<ScreenMetrics>(results, 'screen')
      return screen ? <ScreenPicture screen={screen} window={signalIn<WindowMetrics>(results, 'window') ?? null} checks={results.checks} /> : ''
    }
    case 'canvas-fingerprint': {
      const canvas = signalIn<{ value: Canvas2dHash; picture?: CanvasPicture }>(results, 'canvas')
      const gl = signalIn<WebglSummary>(results, 'webgl')
      return (
        <CanvasPictures
          drawings={[
            { title: '2D canvas', alt: 'The 2D canvas scene (text, emoji, gradient, blended circles) as this browser drew it', picture: canvas?.picture, hash: canvas?.value.hash ?? null, showWidth: 220 },
            { title: 'WebGL render', alt: 'The WebGL scene (a shaded polygon) as this browser’s GPU rendered it', picture: gl?.picture, hash: gl?.pixelsHash ?? null, showWidth: 128, pixelated: true },
          ]}
        />
      )
    }
    case 'audio-fingerprint': {
      const plot = signalIn<{ plot?: AudioPlot }>(results, 'audio')?.plot
      return plot ? <AudioPicture plot={plot} /> : ''
    }
    case 'font-detection': {
      const fonts = results.fonts as { detected?: string[]; tested?: number; inferredOs?: string | null } | undefined
      return fonts?.detected ? <FontsPicture detected={fonts.detected} tested={fonts.tested ?? 0} inferredOs={fonts.inferredOs ?? null} /> : ''
    }
    case 'bot-detector':
      return (
        <>
          {results.untested ? '' : <BotVerdict results={results} />}
          <BotFindings checks={results.checks} />
        </>
      )
    // The sections are the tools' own (src/core/tools/<tool>.ts), as assembleResults stored them.
    case 'ip-leak': {
      if (!results.ip) return ''
      const ip = results.ip as { address: string; scope: string | null; lookup: LookupPart }
      return (
        <>
          <NetworkCardPicture c={networkCard(ip.address, ip.scope, ip.lookup)} />
          <AddressesPicture groups={ipLeakMap(results as unknown as Parameters<typeof ipLeakMap>[0])} />
        </>
      )
    }
    case 'vpn-detector': {
      const vpn = results.vpn as { address: string; scope: string | null; lookup: LookupPart } | undefined
      return vpn ? <NetworkCardPicture c={networkCard(vpn.address, vpn.scope, vpn.lookup)} /> : ''
    }
    case 'timezone-geo': {
      const tz = results.timezone as { zone: string | null; utcOffset: string | null; ipCountry: string | null } | undefined
      if (!tz) return ''
      const fit = results.checks.find((c) => c.id === 'ip-zone')?.verdict ?? 'na'
      return <ZoneBandPicture z={zoneBand(tz, Date.now())} fit={fit} />
    }
    case 'tls-fingerprint': {
      const tls = results.tls as { ja4: string | null; alpn: string[] | null } | undefined
      if (!tls?.ja4) return ''
      const seen = tlsEvidenceOf({ evidence: ((results.server as { evidence?: unknown[] } | undefined)?.evidence ?? []) as never })
      const grease = seen?.tls ? ((seen.tls as { grease?: boolean | null }).grease ?? null) : null
      const hello = tlsHello(tls.ja4, grease, tls.alpn)
      return hello ? <TlsHelloPicture t={hello} /> : ''
    }
    case 'webrtc-leak':
      return results.webrtc ? <AddressesPicture groups={webrtcLeakMap(results as unknown as Parameters<typeof webrtcLeakMap>[0])} /> : ''
    case 'dns-leak':
      return results.dns ? <AddressesPicture groups={dnsLeakMap(results as unknown as Parameters<typeof dnsLeakMap>[0])} /> : ''
    default:
      return ''
  }
}
