// Privacy preferences the browser both sends as a header and exposes to scripts, from one
// setting: Do Not Track and Global Privacy Control. https://privacycg.github.io/gpc-spec/

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { header } from '../core/tools/observation'
import { checkOn } from './define'

const check = checkOn<HttpHeadersSignals>()

export const dntHeader = check({
  id: 'dnt-header',
  name: 'DNT header agrees with navigator.doNotTrack',
  found: 'the DNT header contradicts navigator.doNotTrack',
  source: 'server',
  why: 'With Do Not Track enabled, the browser sends DNT: 1 and reports "1" in navigator.doNotTrack. One without the other means the header or property was set by a tool; an extension that adds only the header is the known false positive, so it only warns.',
  ref: 'https://developer.mozilla.org/docs/Web/API/Navigator/doNotTrack',
  needs: ['privacy'],
  judge: ({ privacy }, { server }) => {
    const dnt = header(server, 'dnt') ?? null
    const on = privacy.doNotTrack === '1' || privacy.doNotTrack === 'yes'
    return { verdict: on === (dnt === '1') ? 'pass' : 'warn', observed: `DNT header ${dnt ?? 'absent'}; navigator.doNotTrack ${privacy.doNotTrack ?? 'null'}`, expected: 'DNT: 1 exactly when navigator.doNotTrack is "1"' }
  },
})

export const gpcHeader = check({
  id: 'gpc-header',
  name: 'Sec-GPC header agrees with navigator.globalPrivacyControl',
  found: 'the Sec-GPC header contradicts navigator.globalPrivacyControl',
  source: 'server',
  why: 'Global Privacy Control is sent as Sec-GPC: 1 and exposed as navigator.globalPrivacyControl = true by the same setting (Firefox, Brave, DuckDuckGo). Extensions that add only one of them are the known false positive, so it only warns.',
  ref: 'https://privacycg.github.io/gpc-spec/',
  needs: ['privacy'],
  judge: ({ privacy }, { server }) => {
    const gpc = header(server, 'sec-gpc') ?? null
    return {
      verdict: (privacy.globalPrivacyControl === true) === (gpc === '1') ? 'pass' : 'warn',
      observed: `Sec-GPC header ${gpc ?? 'absent'}; navigator.globalPrivacyControl ${privacy.globalPrivacyControl ?? 'undefined'}`,
      expected: 'Sec-GPC: 1 exactly when navigator.globalPrivacyControl is true',
    }
  },
})
