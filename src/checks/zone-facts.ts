// What several time-zone checks (and the timezone-geo sections) read the same way: the zone the
// browser reports, its preferred languages, the Accept-Language header, the server's year.

import { whyMissing, type SignalResult } from '../../common/signal'
import type { IntlZone, TzOffsets } from '../../common/signals/timezone-geo'
import { acceptedTags } from '../core/accept-language'
import { header, type ServerObservation } from '../core/tools/observation'

/** The zone the browser reports: the one its offsets were sampled in, else Intl's; '' for none. */
export const reportedZone = (offsets: TzOffsets | undefined, zone: IntlZone | undefined): string => offsets?.zone || zone?.timeZone || ''

/** Why there is no zone to judge. */
export const noZone = (raw: { zone?: SignalResult<unknown> }): string => whyMissing(raw.zone) || 'no zone reported'

/** The offset sample taken at collection time (the probe puts it last). */
export const nowSample = (offsets: TzOffsets | undefined) => offsets?.samples[offsets.samples.length - 1]

/** The language tags of the Accept-Language header, in order of preference. */
export const acceptTags = (server: Pick<ServerObservation, 'headers'>): string[] => acceptedTags(header(server, 'accept-language'))

/** "de" for de-AT, de_AT or DE. */
export const langBase = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase()

/** The year on the server's clock at receipt: "recent" offsets are this year's and last. */
export const serverYear = (server: Pick<ServerObservation, 'receivedAt'>) => new Date(server.receivedAt).getUTCFullYear()
