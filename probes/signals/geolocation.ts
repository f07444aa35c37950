// Whether the Geolocation API exists and its permission state, WITHOUT asking for a position:
// permissions.query never prompts (https://w3c.github.io/permissions/#query-method).
// navigator.geolocation exists in every engine, but getCurrentPosition only works in secure
// contexts; removing it is what some privacy extensions and stripped embedded browsers do.

import type { GeolocationApi } from '../../common/signals/timezone-geo'

export async function geolocationApi(): Promise<GeolocationApi> {
  const present = 'geolocation' in navigator && !!navigator.geolocation
  let permission: string | null = null
  let permissionError: string | null = null
  try {
    if (!navigator.permissions) throw new Error('no navigator.permissions')
    permission = (await navigator.permissions.query({ name: 'geolocation' })).state
  } catch (e) {
    permissionError = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200)
  }
  return { present, secureContext: isSecureContext, permission, permissionError }
}
