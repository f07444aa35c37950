// Time-zone arithmetic shared by the timezone-geo page and its judge: the UTC offset a named
// zone has at an instant (computed with Intl from the zone's rules, so the server can re-check
// what the page reports with its own ICU data), the offset and name printed by
// Date.prototype.toString, and the zones of a language's region.
// Pure: Intl only, no clock (instants are arguments).

/**
 * Minutes to add to local time to get UTC at `at` in `zone`, i.e. the sign convention of
 * Date.prototype.getTimezoneOffset (UTC+1 is -60). Null when the zone is unknown here.
 */
export function zoneOffsetMinutes(zone: string, at: number): number | null {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    }).formatToParts(at)
  } catch {
    return null
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'))
  if (!Number.isFinite(wall)) return null
  const whole = Math.floor(at / 1000) * 1000
  return Math.round((whole - wall) / 60000)
}

/** The zone's canonical name as this engine's ICU spells it (Asia/Calcutta vs Asia/Kolkata), or null. */
export function canonicalZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone ?? null
  } catch {
    return null
  }
}

/** The instants sampled: 15 January and 15 July at 12:00 UTC of each year (no DST switch near them). */
export function sampleInstants(years: readonly number[]): number[] {
  return years.flatMap((y) => [Date.UTC(y, 0, 15, 12), Date.UTC(y, 6, 15, 12)])
}

/** Years whose offsets the page samples: before and after the big tzdb rule changes, and now. */
export function sampleYears(currentYear: number): number[] {
  return [1970, 1990, 2000, 2010, currentYear]
}

/** "GMT+0130 (Some Name)" from Date.prototype.toString → offset in getTimezoneOffset convention, and the name. */
export function parseDateString(text: string): { offset: number; name: string | null } | null {
  const m = /GMT([+-])(\d{2}):?(\d{2})(?:\s*\(([^)]*)\))?/.exec(text)
  if (!m) return null
  const minutes = Number(m[2]) * 60 + Number(m[3])
  return { offset: m[1] === '+' && minutes ? -minutes : minutes, name: m[4]?.trim() || null }
}

/** The region of a language tag: explicit (de-AT → AT) or the likely one (de → DE). Null if none. */
export function languageRegion(tag: string): string | null {
  try {
    const loc = new Intl.Locale(tag)
    return loc.region ?? loc.maximize().region ?? null
  } catch {
    return null
  }
}

type LocaleWithZones = Intl.Locale & { getTimeZones?: () => string[]; timeZones?: string[] }

/** The IANA zones of a region (CLDR data through Intl.Locale), canonicalised; empty when unknown. */
export function zonesOfRegion(region: string): string[] {
  try {
    const loc = new Intl.Locale(`und-${region}`) as LocaleWithZones
    const zones = loc.getTimeZones?.() ?? loc.timeZones ?? []
    return zones.map((z) => canonicalZone(z) ?? z)
  } catch {
    return []
  }
}

/** UTC, GMT and Etc/* zones: what servers, containers and resistFingerprinting report. */
export function isUtcZone(zone: string): boolean {
  return /^(Etc\/)?(UTC|UCT|GMT|Universal|Zulu|Greenwich)([+-]?0)?$/i.test(zone) || /^Etc\//.test(zone)
}

/** "+01:00" for an offset in getTimezoneOffset convention. */
export function formatOffset(offset: number): string {
  const m = Math.abs(offset)
  return `${offset <= 0 ? '+' : '-'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
}

/** Does `zone` belong to, or share its offsets with, one of the regions' zones? */
export function zoneFitsRegions(zone: string, regions: readonly string[], year: number): boolean {
  const probe = [Date.UTC(year, 0, 15, 12), Date.UTC(year, 6, 15, 12)]
  const mine = probe.map((at) => zoneOffsetMinutes(zone, at))
  if (mine.some((o) => o === null)) return false
  return regions.some((r) =>
    zonesOfRegion(r).some((z) => z.toLowerCase() === zone.toLowerCase() || probe.every((at, i) => zoneOffsetMinutes(z, at) === mine[i])),
  )
}
