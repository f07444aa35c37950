// The time zone as Intl names it and as Date's offset implies it, and the locale Intl
// formats with. A zone spoofed through Intl alone (a common extension trick) keeps the real
// getTimezoneOffset, so the two disagree; Firefox resistFingerprinting reports UTC and en-US.
// longOffset needs Chrome 95, Firefox 91, Safari 15.4; older engines give null.
export function timezoneBasics() {
  const opts = Intl.DateTimeFormat().resolvedOptions()
  const zone = opts.timeZone ?? null
  const now = new Date()
  let intlOffset: number | null = null
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone ?? undefined, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName')?.value
    const mm = name ? /^GMT(?:([+-])(\d{2}):?(\d{2}))?$/.exec(name) : null
    // Minutes west of UTC, the sign convention of getTimezoneOffset.
    if (mm) intlOffset = mm[1] ? (mm[1] === '+' ? -1 : 1) * (Number(mm[2]) * 60 + Number(mm[3])) : 0
  } catch {
    intlOffset = null
  }
  return { zone, offset: now.getTimezoneOffset(), intlOffset, locale: opts.locale ?? null, calendar: opts.calendar ?? null }
}
