// bot-detector's findings grouped by what they are: traces automation leaves (markers), values
// the browser misreports (lies), values that contradict each other (consistency), and what the
// service itself observed (server evidence). Each group lists its failed and warned checks,
// worst first, each by what it found (the check's `found` phrase: "navigator.webdriver is
// true", not its name "navigator.webdriver is not true"), and counts the rest; the table
// below has every check by name.

import { foundText } from '../../core/check-found'
import type { Check } from '../../core/scoring'

export const KINDS = ['markers', 'lies', 'consistency', 'server'] as const
export type FindingKind = (typeof KINDS)[number]

export const KIND_TITLES: Record<FindingKind, string> = {
  markers: 'Automation markers',
  lies: 'Lies',
  consistency: 'Consistency',
  server: 'Server evidence',
}

/**
 * The kind of each client-side bot-detector check (src/core/tools/bot-detector.ts); a check
 * whose finding is the server's (source `server`) is server evidence whatever it is. A test
 * keeps this list complete.
 */
export const CLIENT_KINDS: Readonly<Record<string, FindingKind>> = {
  'webdriver-flag': 'markers',
  'cdp-runtime': 'markers',
  'navigation-rate-limit': 'markers',
  'storage-partitioning': 'markers',
  'stack-sourceurl': 'markers',
  'input-pacing': 'markers',
  'input-clock': 'markers',
  'playwright-globals': 'markers',
  'selenium-globals': 'markers',
  phantomjs: 'markers',
  'automation-globals': 'markers',
  'headless-ua': 'markers',
  'headless-worker-ua': 'markers',
  'headless-shared-worker-ua': 'markers',
  'headless-brands': 'markers',
  'pointing-device': 'markers',
  'headless-screen': 'markers',
  'animation-frames': 'markers',
  plugins: 'markers',
  'webgl-renderer': 'markers',
  'window-chrome': 'markers',
  'default-viewport': 'markers',
  languages: 'markers',
  'chrome-object': 'lies',
  'webdriver-descriptor': 'lies',
  'stealth-lies': 'lies',
  'api-lies': 'lies',
  'iframe-proxy': 'lies',
  'canvas-noise': 'lies',
  'notification-permission': 'consistency',
  'window-fits-screen': 'consistency',
  'engine-vs-ua': 'consistency',
  'eval-tostring': 'consistency',
  'ua-consistency': 'consistency',
  'iframe-consistency': 'consistency',
  'worker-consistency': 'consistency',
  'probe-integrity': 'consistency',
}

export function kindOf(c: Pick<Check, 'id' | 'source'>): FindingKind {
  return c.source === 'server' ? 'server' : (CLIENT_KINDS[c.id] ?? 'consistency')
}

export function BotFindings(props: { checks: readonly Check[] }): JSX.Element {
  const order = { fail: 0, warn: 1, pass: 2, na: 3 } as const
  return (
    <div class="picture findings" data-picture="findings">
      {KINDS.map((kind) => {
        const mine = props.checks.filter((c) => kindOf(c) === kind)
        const fired = mine.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').sort((a, b) => order[a.verdict] - order[b.verdict] || b.points - a.points)
        const passed = mine.filter((c) => c.verdict === 'pass').length
        const worst = fired[0]?.verdict ?? (passed ? 'pass' : 'na')
        return (
          <section class={`finding-group v-border-${worst}`} data-kind={kind} data-fired={String(fired.length)} aria-labelledby={`kind-${kind}`}>
            <h2 id={`kind-${kind}`} class="finding-title">
              <span safe>{KIND_TITLES[kind]}</span> <span class={`badge v-${worst}`}>{fired.length ? `${fired.length} found` : 'none found'}</span>
            </h2>
            {fired.length ? (
              <ul>
                {fired.map((c) => (
                  <li>
                    <a href={`#check-${c.id}`} class={`v-${c.verdict}`} safe>
                      {foundText('bot-detector', c)}
                    </a>
                  </li>
                ))}
              </ul>
            ) : (
              ''
            )}
            <p class="muted" safe>
              {`${passed} passed of ${mine.length}`}
            </p>
          </section>
        )
      })}
    </div>
  )
}
