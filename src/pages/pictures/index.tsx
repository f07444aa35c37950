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

type Signals = Record<string, SignalResult<unknown> | undefined>

/** A signal's value from the stored results (validated against the tool's schema when judged). */
export function signalIn<T>(results: ReportResults, name: string): T | undefined {
  const signals = (results.signals ?? {}) as Signals
  return signalValue(signals[name] as SignalResult<T> | undefined)
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
      return <BotFindings checks={results.checks} />
    // The sections are the tools' own (src/core/tools/<tool>.ts), as assembleResults stored them.
    case 'ip-leak':
      return results.ip ? <AddressesPicture groups={ipLeakMap(results as unknown as Parameters<typeof ipLeakMap>[0])} /> : ''
    case 'webrtc-leak':
      return results.webrtc ? <AddressesPicture groups={webrtcLeakMap(results as unknown as Parameters<typeof webrtcLeakMap>[0])} /> : ''
    case 'dns-leak':
      return results.dns ? <AddressesPicture groups={dnsLeakMap(results as unknown as Parameters<typeof dnsLeakMap>[0])} /> : ''
    default:
      return ''
  }
}
