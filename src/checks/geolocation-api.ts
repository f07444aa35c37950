// navigator.geolocation exists in every engine (it only works in secure contexts); removing it
// is what some privacy extensions, embedded browsers and stripped automation builds do.

import type { TimezoneGeoSignals } from '../../common/signals/timezone-geo'
import { checkOn } from './define'

export const geolocationApi = checkOn<TimezoneGeoSignals>()({
  id: 'geolocation-api',
  name: 'Geolocation API is present',
  found: 'the Geolocation API is missing',
  source: 'client',
  why: 'Every engine has navigator.geolocation (it only works in secure contexts). Its absence means it was removed by an extension, an embedded browser or a stripped automation build. The permission state is read with permissions.query, which never prompts.',
  ref: 'https://w3c.github.io/geolocation/',
  expected: 'navigator.geolocation present',
  needs: ['geolocation'],
  judge: ({ geolocation: geo }) => ({
    verdict: geo.present ? 'pass' : 'warn',
    observed: { present: geo.present, permission: geo.permission ?? geo.permissionError, secureContext: geo.secureContext },
  }),
})
