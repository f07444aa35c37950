// Is navigator.permissions.query the engine's own, and are its answers real PermissionStatus
// objects? Stealth kits wrap query in a Proxy (puppeteer-extra-plugin-stealth
// evasions/navigator.permissions) or replace it, patch Function.prototype.toString to hide it,
// and return plain objects re-prototyped to PermissionStatus for 'notifications'. Native
// functions keep properties a replacement loses (the CreepJS "lies" tests,
// https://github.com/abrahamjuliot/creepjs/blob/master/src/lies/index.ts):
// - toString: Function.prototype.toString prints "function query() { [native code] }";
// - own-toString: no own toString property on query;
// - prototype / own-keys: built-in methods have no prototype and only length and name;
// - new: not a constructor;
// - proxy: Object.setPrototypeOf(fn, Object.create(fn)) throws "Cyclic __proto__ value" on a
//   real function; the spec's cycle check stops at a Proxy, so on a proxied one it succeeds
//   (the prototype is restored at once);
// - illegal: query called on a non-Permissions object rejects with a TypeError;
// - descriptor: a WebIDL operation is writable, enumerable and configurable on the prototype,
//   and the navigator.permissions instance has no own properties;
// - getter: navigator.permissions is the native getter of Navigator.prototype;
// - fn-toString: Function.prototype.toString is itself native;
// - status-*: the PermissionStatus answered has no own properties, the right prototype, and its
//   state getter works on it (a fake object throws "Illegal invocation").

import type { PermissionsLies } from '../../common/signals/permissions-api'
import { isNativeFunction, isProxied } from './native'

function throwsTypeError(run: () => unknown): boolean {
  try {
    run()
    return false
  } catch (e) {
    return e instanceof TypeError
  }
}

export async function permissionsLies(): Promise<PermissionsLies> {
  const query: string[] = []
  const status: string[] = []
  const P = typeof Permissions === 'function' ? Permissions.prototype : null
  const d = P ? Object.getOwnPropertyDescriptor(P, 'query') : undefined
  const fn = d?.value as ((this: unknown, desc: PermissionDescriptor) => Promise<PermissionStatus>) | undefined
  if (!P || typeof fn !== 'function') return { query: navigator.permissions ? ['missing-on-prototype'] : [], status }

  if (!isNativeFunction(fn, 'query')) query.push('toString')
  if (Object.hasOwn(fn, 'toString')) query.push('own-toString')
  if ('prototype' in fn) query.push('prototype')
  if (Object.getOwnPropertyNames(fn).sort().join() !== 'length,name') query.push('own-keys')
  if (!throwsTypeError(() => new (fn as unknown as new () => unknown)())) query.push('new')
  if (isProxied(fn)) query.push('proxy')
  if (!d!.writable || !d!.enumerable || !d!.configurable) query.push('descriptor')
  if (navigator.permissions !== undefined && Object.getOwnPropertyNames(navigator.permissions).length) query.push('instance-props')
  const getter = Object.getOwnPropertyDescriptor(Navigator.prototype, 'permissions')?.get
  if (!getter || !isNativeFunction(getter, 'permissions') || Object.hasOwn(navigator, 'permissions')) query.push('getter')
  if (!isNativeFunction(Function.prototype.toString, 'toString')) query.push('fn-toString')
  try {
    await fn.call({}, { name: 'geolocation' })
    query.push('illegal')
  } catch (e) {
    if (!(e instanceof TypeError)) query.push('illegal')
  }

  // notifications is the name stealth kits answer themselves; geolocation is a control.
  for (const name of ['notifications', 'geolocation'] as const) {
    let s: PermissionStatus
    try {
      s = await navigator.permissions.query({ name })
    } catch {
      continue // unknown to this engine: nothing to inspect
    }
    if (Object.getOwnPropertyNames(s).length) status.push(`status-own-props:${name}`)
    if (Object.getPrototypeOf(s) !== PermissionStatus.prototype) status.push(`status-prototype:${name}`)
    const state = Object.getOwnPropertyDescriptor(PermissionStatus.prototype, 'state')?.get
    try {
      if (!state || state.call(s) !== s.state) status.push(`status-state:${name}`)
    } catch {
      status.push(`status-state:${name}`)
    }
  }
  return { query, status }
}
