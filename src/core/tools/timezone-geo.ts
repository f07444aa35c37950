// timezone-geo: the time zone, its offsets now and in the past, the locale and languages, the
// same in a worker, and the page's clock, each against what it should agree with: the zone's
// own rules (re-computed here with the server's ICU), Date.prototype.toString, the worker, the
// Accept-Language header and the server's clock. A zone faked in JavaScript rarely survives all
// of them; a zone set for the whole browser (CDP/Playwright emulation, the OS) does, and then
// only the IP location can contradict it: the offline IP database (ctx.lookupIp) gives the
// address's country, whose zones (CLDR, through Intl) the browser's zone must be among or
// share its offsets with.

import { Type, type Static } from '@sinclair/typebox'
import { acceptedTags } from '../accept-language'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { header, type ServerObservation } from './observation'
import { intelOf, languagesFitCountry, networkText, whyNoIntel, zoneFitsCountry } from './ip-intel'
import { legacyTool, type JudgeContext } from './types'
import { formatOffset, isUtcZone, languageRegion, parseDateString, zoneFitsRegions, zoneOffsetMinutes } from '../../../common/tz-offset'

const Num = Type.Number()
const Str = (n: number) => Type.String({ maxLength: n })
const NullableStr = (n: number) => Type.Union([Type.String({ maxLength: n }), Type.Null()])

export const TimezoneGeoSignals = Type.Object({
  zone: Signal(
    Type.Object({
      timeZone: Str(64), locale: Str(64), calendar: Str(32), numberingSystem: Str(32), hourCycle: NullableStr(16),
      language: Str(64), languages: Type.Array(Str(64), { maxItems: 16 }),
    }),
  ),
  offsets: Signal(
    Type.Object({
      zone: Str(64),
      samples: Type.Array(Type.Object({ at: Num, date: Num, intl: Type.Union([Num, Type.Null()]) }), { maxItems: 16 }),
    }),
  ),
  dateString: Signal(Type.Object({ at: Num, offset: Num, text: Str(200), intlName: NullableStr(100), intlNameEn: NullableStr(100) })),
  worker: Signal(
    Type.Object({
      timeZone: Str(64), locale: Str(64), offsetNow: Num, jan: Num, jul: Num, language: Str(64), languages: Type.Array(Str(64), { maxItems: 16 }),
    }),
  ),
  clock: Signal(Type.Object({ now: Num, perf: Num })),
  geolocation: Signal(Type.Object({ present: Type.Boolean(), secureContext: Type.Boolean(), permission: NullableStr(16), permissionError: NullableStr(200) })),
})
export type TimezoneGeoSignals = Static<typeof TimezoneGeoSignals>

const DEFS = {
  dateVsIntl: {
    id: 'tz-offsets-consistent', name: 'Date offsets follow the zone’s rules', source: 'client', weight: 40,
    why: 'getTimezoneOffset at fixed instants (January and July of 1970, 1990, 2000, 2010, this year, and now) must equal what the reported zone’s rules give through Intl in the same browser: both come from the same tzdata. Spoofers that rename the zone or return a constant offset break this, usually in summer or in the past.',
  },
  rules: {
    id: 'tz-rules-server', name: 'Offsets match the zone on the server’s clock data', source: 'client', weight: 30,
    why: 'The server re-computes the claimed zone’s offsets with its own ICU. A mismatch this year or last means the offsets were invented; a mismatch only in past years can be a different tzdata version (zones merged in 2022 changed some pre-1970 history), so it only warns. A zone name the server does not know is either newer than its data or made up.',
  },
  toString: {
    id: 'tz-date-string', name: 'Date.toString agrees with the offset and zone name', source: 'client', weight: 25,
    why: 'Date.prototype.toString prints the offset and zone name from the engine’s own time-zone code; a patched getTimezoneOffset leaves it unchanged (fail). A name unlike Intl’s long name for the zone warns: it can also come from an unusual locale.',
  },
  worker: {
    id: 'tz-worker', name: 'A worker sees the same zone', source: 'client', weight: 35,
    why: 'Browser-wide emulation and the OS zone apply to workers too; JavaScript patches of Date, Intl or navigator in the page do not reach a worker’s own globals. A different zone or offset there is a spoofing script that forgot workers. Differing languages only warn.',
  },
  utc: {
    id: 'tz-not-utc', name: 'Zone is not plain UTC', source: 'client', weight: 8,
    why: 'Servers, containers and CI machines run in UTC, so headless browsers there report it. So do Firefox with resistFingerprinting and Tor Browser, and some people in UTC±0 countries who set it on purpose; hence only a small warning.',
  },
  locale: {
    id: 'locale-consistent', name: 'Intl locale is among the preferred languages', source: 'client', weight: 10,
    why: 'Intl formats with the browser’s UI language, and navigator.languages lists the user’s preferred content languages; the UI language is nearly always one of them. When it is not, the languages were probably overridden without the locale (or the reverse). People with a UI in one language and content preferences in others exist, so it warns.',
  },
  acceptLanguage: {
    id: 'accept-language-match', name: 'Accept-Language header matches navigator.languages', source: 'server', weight: 25,
    why: 'The browser builds the Accept-Language header from the same preference list it exposes as navigator.languages, so the first language must be the same. Overriding navigator.languages in the page (or only the header, in a proxy or automation config) breaks the pair. Chromium may append a base language to the header, which is tolerated.',
  },
  zoneLanguage: {
    id: 'zone-language', name: 'Zone fits the languages’ regions', source: 'client', weight: 6,
    why: 'The regions of the preferred languages (explicit, like de-AT, or likely, like de → DE) usually include the time zone, or at least one with the same offsets. Expatriates and English-language setups make mismatches common, so this only adds a small warning; it mostly helps to explain other findings.',
  },
  skew: {
    id: 'clock-skew', name: 'Page clock agrees with the server', source: 'server', weight: 20,
    why: 'The page sends Date.now() as it submits and the server compares it with its own clock at receipt; transit takes well under two minutes, so a larger gap is a wrong or shifted system clock. VMs without time sync, replayed submissions and clocks moved to fake a zone show it; so do dual-boot machines whose clock is off by whole hours, hence a warning.',
  },
  clocks: {
    id: 'clock-monotonic', name: 'Date.now agrees with the performance clock', source: 'client', weight: 10,
    why: 'performance.timeOrigin + performance.now() and Date.now() give the same wall time on a freshly loaded page. A gap of more than 30 seconds means Date was replaced (fake-timer libraries, time-shifting extensions) or the system clock jumped while the page loaded.',
  },
  geolocation: {
    id: 'geolocation-api', name: 'Geolocation API is present', source: 'client', weight: 6,
    why: 'Every engine has navigator.geolocation (it only works in secure contexts). Its absence means it was removed by an extension, an embedded browser or a stripped automation build. The permission state is read with permissions.query, which never prompts.',
  },
  ipZone: {
    id: 'ip-zone', name: 'Zone and languages fit the IP’s location', source: 'server', weight: 30,
    why: 'The strongest check of a time zone is the location of the address the request came from: a browser in Europe/Berlin behind a US address is behind a proxy or VPN, or its zone is faked. The country comes from the offline IP database (geofeeds, then RIR whois); a zone passes when it is one of the country\'s (CLDR) or has the same offsets in January and July, so neighbours in one zone pass. Travellers who keep their home zone are the false positive. With the zone right, languages that fit neither the country nor English only warn.',
  },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })
const day = (at: number) => new Date(at).toISOString().slice(0, 10)
const base = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase()

/** "3 h 0 min 5 s ahead of the server", "in step with the server". */
export function relation(ms: number, other: string): string {
  const s = Math.round(Math.abs(ms) / 1000)
  if (s === 0) return `in step with ${other}`
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const text = [h ? `${h} h` : '', m ? `${m} min` : '', s % 60 ? `${s % 60} s` : ''].filter(Boolean).join(' ')
  return `${text} ${ms > 0 ? 'ahead of' : 'behind'} ${other}`
}

export { zoneFitsRegions } from '../../../common/tz-offset'

export const timezoneGeo = legacyTool({
  id: 'timezone-geo',
  signals: TimezoneGeoSignals,
  sections: Type.Object({ timezone: Type.Unknown() }),
  judge(s: TimezoneGeoSignals, server: ServerObservation, ctx?: JudgeContext) {
    const checks: Check[] = []
    const zoneSig = valueOf(s.zone)
    const offsets = valueOf(s.offsets)
    const ds = valueOf(s.dateString)
    const worker = valueOf(s.worker)
    const langs = zoneSig ? { language: zoneSig.language, languages: zoneSig.languages } : undefined
    const clock = valueOf(s.clock)
    const geo = valueOf(s.geolocation)
    const zone = offsets?.zone || zoneSig?.timeZone || ''
    const serverYear = new Date(server.receivedAt).getUTCFullYear()
    const nowSample = offsets?.samples[offsets.samples.length - 1]

    // 1. Date vs Intl in the same browser.
    if (offsets && offsets.samples.some((x) => x.intl !== null)) {
      const bad = offsets.samples.filter((x) => x.intl !== null && x.intl !== x.date)
      checks.push(
        check(DEFS.dateVsIntl, {
          verdict: bad.length ? 'fail' : 'pass',
          observed: bad.length
            ? { zone, mismatches: bad.slice(0, 6).map((x) => ({ day: day(x.at), getTimezoneOffset: x.date, zoneRules: x.intl })) }
            : `${zone}: ${offsets.samples.length} instants agree`,
          expected: 'getTimezoneOffset equal to the zone’s Intl offset at every instant',
        }),
      )
    } else checks.push(na(DEFS.dateVsIntl, offsets ? 'Intl could not compute offsets for the zone in this browser' : whyMissing(s.offsets)))

    // 2. The same offsets re-computed with the server's ICU.
    if (offsets && zone) {
      const expected = offsets.samples.map((x) => ({ ...x, server: zoneOffsetMinutes(zone, x.at) }))
      if (expected.every((x) => x.server === null)) {
        checks.push(check(DEFS.rules, { verdict: 'warn', observed: { zone }, expected: 'a zone name known to the server’s time-zone data' }))
      } else {
        const bad = expected.filter((x) => x.server !== null && x.server !== x.date)
        const recent = bad.filter((x) => new Date(x.at).getUTCFullYear() >= serverYear - 1)
        checks.push(
          check(DEFS.rules, {
            verdict: recent.length ? 'fail' : bad.length ? 'warn' : 'pass',
            observed: bad.length ? { zone, mismatches: bad.slice(0, 6).map((x) => ({ day: day(x.at), browser: x.date, server: x.server })) } : `${zone}: ${expected.length} instants agree with the server`,
            expected: `the offsets of ${zone} in the server’s tzdata`,
          }),
        )
      }
    } else checks.push(na(DEFS.rules, whyMissing(s.offsets) || 'no zone reported'))

    // 3. Date.prototype.toString.
    if (ds) {
      const parsed = parseDateString(ds.text)
      if (!parsed) {
        checks.push(check(DEFS.toString, { verdict: 'warn', observed: ds.text, expected: 'a "GMT±hhmm (Zone Name)" suffix' }))
      } else {
        const names = [ds.intlName, ds.intlNameEn].filter((n): n is string => !!n).map((n) => n.toLowerCase())
        const nameOk = !parsed.name || names.length === 0 || names.includes(parsed.name.toLowerCase())
        checks.push(
          check(DEFS.toString, {
            verdict: parsed.offset !== ds.offset ? 'fail' : nameOk ? 'pass' : 'warn',
            observed: { toString: ds.text.replace(/^.*?(GMT)/, '$1'), getTimezoneOffset: ds.offset, intlName: ds.intlName ?? ds.intlNameEn },
            expected: `GMT${formatOffset(ds.offset).replace(':', '')} and the zone’s Intl long name`,
          }),
        )
      }
    } else checks.push(na(DEFS.toString, whyMissing(s.dateString)))

    // 4. The worker.
    if (worker && zoneSig && offsets && nowSample) {
      const year = new Date(nowSample.at).getUTCFullYear()
      const at = (m: number) => offsets.samples.find((x) => x.at === Date.UTC(year, m, 15, 12))?.date
      const jan = at(0)
      const jul = at(6)
      const zoneDiff =
        worker.timeZone !== zoneSig.timeZone || worker.offsetNow !== nowSample.date || (jan !== undefined && worker.jan !== jan) || (jul !== undefined && worker.jul !== jul)
      const langDiff = !!langs && (worker.language !== langs.language || worker.languages.join() !== langs.languages.join())
      checks.push(
        check(DEFS.worker, {
          verdict: zoneDiff ? 'fail' : langDiff ? 'warn' : 'pass',
          observed: { page: { zone: zoneSig.timeZone, offset: nowSample.date, languages: langs?.languages ?? null }, worker: { zone: worker.timeZone, offset: worker.offsetNow, languages: worker.languages } },
          expected: 'the same zone, offsets and languages in the page and in a worker',
        }),
      )
    } else checks.push(na(DEFS.worker, whyMissing(s.worker) || whyMissing(s.zone) || whyMissing(s.offsets)))

    // 5. UTC.
    if (zone) checks.push(check(DEFS.utc, { verdict: isUtcZone(zone) ? 'warn' : 'pass', observed: zone, expected: 'a regional zone such as Europe/Paris' }))
    else checks.push(na(DEFS.utc, whyMissing(s.zone) || 'no zone reported'))

    // 6. Intl locale vs languages.
    if (zoneSig && langs && langs.languages.length) {
      const ok = langs.languages.some((l) => base(l) === base(zoneSig.locale))
      checks.push(check(DEFS.locale, { verdict: ok ? 'pass' : 'warn', observed: { intlLocale: zoneSig.locale, languages: langs.languages }, expected: `a ${base(zoneSig.locale) || '?'}-* entry in navigator.languages` }))
    } else checks.push(na(DEFS.locale, whyMissing(s.zone) || 'navigator.languages is empty'))

    // 7. Accept-Language header (server-observed) vs navigator.languages.
    const acceptRaw = header(server, 'accept-language')
    const accept = acceptedTags(acceptRaw)
    if (langs) {
      const first = langs.languages[0] ?? langs.language
      let verdict: 'pass' | 'warn' | 'fail'
      if (!accept.length || !first) verdict = 'warn'
      else if (accept[0]!.toLowerCase() === first.toLowerCase()) {
        const bases = new Set(langs.languages.map(base))
        verdict = accept.every((a) => bases.has(base(a))) ? 'pass' : 'warn'
      } else verdict = base(accept[0]!) === base(first) ? 'warn' : 'fail'
      checks.push(
        check(DEFS.acceptLanguage, {
          verdict,
          observed: { acceptLanguage: acceptRaw ?? null, navigatorLanguages: langs.languages },
          expected: first ? `a header starting with ${first}` : 'navigator.languages and an Accept-Language header',
        }),
      )
    } else checks.push(na(DEFS.acceptLanguage, whyMissing(s.zone)))

    // 8. Zone vs the languages' regions.
    const tags = [...(langs?.languages ?? []), ...accept].filter((t) => !(base(t) === 'en' && !/[-_]/.test(t)))
    const regions = [...new Set(tags.map(languageRegion).filter((r): r is string => !!r))]
    if (zone && !isUtcZone(zone) && regions.length) {
      const fits = zoneFitsRegions(zone, regions, serverYear)
      checks.push(check(DEFS.zoneLanguage, { verdict: fits ? 'pass' : 'warn', observed: { zone, languageRegions: regions }, expected: `a zone of ${regions.join(', ')} or one with the same offsets` }))
    } else checks.push(na(DEFS.zoneLanguage, !zone ? whyMissing(s.zone) || 'no zone reported' : isUtcZone(zone) ? 'UTC belongs to no region' : 'no language names a region'))

    // 9–10. Clocks.
    const skew = clock ? clock.now - server.receivedAt : null
    if (clock && skew !== null) {
      checks.push(
        check(DEFS.skew, {
          verdict: Math.abs(skew) <= 120_000 ? 'pass' : 'warn',
          observed: `page clock ${relation(skew, 'the server')}`,
          expected: 'within 2 minutes of the server clock',
        }),
      )
      const drift = clock.now - clock.perf
      checks.push(check(DEFS.clocks, { verdict: Math.abs(drift) <= 30_000 ? 'pass' : 'warn', observed: `Date.now ${relation(drift, 'the performance clock')}`, expected: 'within 30 s' }))
    } else checks.push(na(DEFS.skew, whyMissing(s.clock)), na(DEFS.clocks, whyMissing(s.clock)))

    // 11. Geolocation, without asking for a position.
    if (geo) {
      checks.push(
        check(DEFS.geolocation, {
          verdict: geo.present ? 'pass' : 'warn',
          observed: { present: geo.present, permission: geo.permission ?? geo.permissionError, secureContext: geo.secureContext },
          expected: 'navigator.geolocation present',
        }),
      )
    } else checks.push(na(DEFS.geolocation, whyMissing(s.geolocation)))

    // 12. IP location from the offline database.
    const intel = intelOf(ctx, server.ip)
    const ipCountry = intel.status === 'found' ? intel.info.country : null
    const tongues = [...new Set([...(langs?.languages ?? []), ...accept])]
    const noIntel = whyNoIntel(intel, server.ip)
    if (noIntel || !ipCountry) checks.push(na(DEFS.ipZone, noIntel ?? `an address the database places in a country (${server.ip}: ${intel.status === 'found' ? networkText(intel.info) : '?'})`))
    else if (!zone) checks.push(na(DEFS.ipZone, whyMissing(s.zone) || 'no zone reported'))
    else {
      const fits = zoneFitsCountry(zone, ipCountry, serverYear)
      const langFit = languagesFitCountry(tongues, ipCountry)
      const observed = { zone, languages: tongues.slice(0, 6), ipCountry, network: networkText((intel as Extract<typeof intel, { status: 'found' }>).info) }
      if (fits === null) checks.push(check(DEFS.ipZone, { verdict: 'na', observed, expected: 'a regional zone: UTC belongs to no country (see tz-not-utc)' }))
      else checks.push(check(DEFS.ipZone, { verdict: !fits ? 'fail' : langFit === false ? 'warn' : 'pass', observed, expected: `a zone of ${ipCountry} (or one with its offsets), and a language of ${ipCountry} or English` }))
    }

    return {
      checks,
      sections: {
        timezone: {
          zone: zone || null,
          utcOffset: nowSample ? formatOffset(nowSample.date) : ds ? formatOffset(ds.offset) : null,
          locale: zoneSig?.locale ?? null,
          calendar: zoneSig?.calendar ?? null,
          hourCycle: zoneSig?.hourCycle ?? null,
          languages: langs?.languages ?? null,
          acceptLanguage: accept,
          workerZone: worker?.timeZone ?? null,
          clockSkewSeconds: skew === null ? null : Math.round(skew / 100) / 10 || 0,
          geolocation: geo ? { present: geo.present, permission: geo.permission } : null,
          ipCountry,
        },
      },
    }
  },
})
