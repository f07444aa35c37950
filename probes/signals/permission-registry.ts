// permissions.query for every name in the registry (https://w3c.github.io/permissions-registry/)
// plus engine-specific ones and a random name. Which names an engine rejects while parsing the
// descriptor (TypeError: not in its PermissionName enum) and which it knows (a state, or a later
// NotSupportedError/"not enabled") tells the engine and, for Chromium, a version range; the
// judge compares that with the User-Agent. The random name must be rejected: a stealth
// handler that answers every query (puppeteer-extra-plugin-stealth wraps query in a Proxy)
// resolves it. push needs userVisibleOnly in Chromium; querying never prompts.

import type { PermissionRegistry, QueryOutcome } from '../../common/signals/permissions-api'
import { unsupported } from '../core/probe-error'

async function ask(name: string): Promise<QueryOutcome> {
  const descriptor = name === 'push' ? { name, userVisibleOnly: true } : { name }
  try {
    const status = await navigator.permissions.query(descriptor as PermissionDescriptor)
    return { state: String(status.state).slice(0, 16) }
  } catch (e) {
    const err = e as { name?: unknown; message?: unknown }
    return { error: String(err?.name ?? 'Error').slice(0, 40), message: String(err?.message ?? e).slice(0, 160) }
  }
}

export async function permissionRegistry(names: readonly string[]): Promise<PermissionRegistry> {
  if (!navigator.permissions || typeof navigator.permissions.query !== 'function') throw unsupported('no navigator.permissions.query')
  const control = `xq-${Math.random().toString(36).slice(2, 10)}`
  const answers = await Promise.all([...names, control].map(ask))
  const results: Record<string, QueryOutcome> = {}
  for (const [i, n] of names.entries()) results[n] = answers[i]!
  return { results, control: answers[names.length]! }
}
