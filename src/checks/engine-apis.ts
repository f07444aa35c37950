// Network APIs only Chromium exposes, against the engine the User-Agent claims: a UA switcher
// changes the claim, not the APIs (nor the TLS stack the other checks see). The claim is what
// is judged; the engine the page runs on (its error messages) is named beside it.
// https://developer.mozilla.org/docs/Web/API/Navigator/connection

import { ENGINE_NAME } from '../../common/engine-errors'
import { whyMissing } from '../../common/signal'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { parseUserAgent } from '../../common/user-agent'
import { checkOn, na } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'
import { claimText } from './tls-match'

export const engineApis = checkOn<TlsFingerprintSignals>()({
  id: 'engine-apis',
  name: 'Network APIs match the claimed engine',
  found: 'network APIs do not match the claimed engine',
  source: 'client',
  why: 'Chromium exposes navigator.userAgentData in secure contexts and navigator.connection (Network Information); Firefox on desktop and Safari expose neither. A Chrome User-Agent without them is Firefox or Safari behind a UA switcher, whose TLS fingerprint will be Firefox\'s or Safari\'s; a Firefox User-Agent with them is Chromium in disguise. The claim is judged; when the page\'s engine (told by its error messages) is another, the finding names it.',
  ref: 'https://wicg.github.io/netinfo/',
  needs: [],
  uses: ['uaData', 'connection', 'stack', 'engine'],
  judge: ({ uaData, connection, stack, engine }, { server, raw }) => {
    const claimed = parseUserAgent(server.userAgent)
    const unsupported = (s: (typeof raw)['uaData'] | (typeof raw)['connection']) => s?.ok === false && s.error.kind === 'unsupported'
    const hasUaData = uaData !== undefined
    const hasConn = connection !== undefined
    if (claimed.engine === 'unknown') return na('the User-Agent names no engine')
    // An API that is absent is a finding; a probe that failed otherwise leaves nothing to judge.
    const unread = [!hasUaData && !unsupported(raw.uaData) ? whyMissing(raw.uaData) : '', !hasConn && !unsupported(raw.connection) ? whyMissing(raw.connection) : ''].filter(Boolean)
    if (unread.length) return na(unread.join('; '))
    const problems: string[] = []
    const secure = stack?.secureContext ?? hasUaData
    if (claimed.engine === 'blink') {
      if (secure && (claimed.version ?? 0) >= 90 && !hasUaData) problems.push('no navigator.userAgentData')
      if ((claimed.version ?? 0) >= 61 && !hasConn) problems.push('no navigator.connection')
    } else {
      if (hasUaData) problems.push('navigator.userAgentData exists')
      // Firefox for Android keeps navigator.connection; desktop Firefox and Safari have none.
      if (hasConn && !(claimed.engine === 'gecko' && claimed.os === 'android')) problems.push('navigator.connection exists')
    }
    const observed = `userAgentData ${hasUaData ? 'present' : 'absent'}, navigator.connection ${hasConn ? 'present' : 'absent'}`
    const page = pageEngine(engine)
    const other = claimAgainstEngine(claimed.engine, page.engine)
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? `${observed}: ${problems.join(', ')} for ${claimText(claimed)}${other ? `; ${other}` : ''}` : observed,
      expected: `${claimed.engine === 'blink' ? 'both present in Chromium' : `neither in ${claimed.engine}`}, the engine the User-Agent claims${other ? `; the page runs on ${ENGINE_NAME[page.engine]}, as its error messages show` : ''}`,
    }
  },
})
