// The picture a tool's report shows above its checks, where one says more than the table:
// drawn on the server from what the page measured and the task stored (SVG, or the page's own
// drawings as data: images, which the pages' Content-Security-Policy allows in img-src).
// Tools without one get nothing.

import { signalValue, type SignalResult } from '../../../common/signal'
import type { ScreenMetrics, WindowMetrics } from '../../../common/signals/screen-display'
import type { ToolId } from '../../../common/tools'
import type { ReportResults } from '../report'
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
    default:
      return ''
  }
}
