// Is a function the engine's own? Function.prototype.toString prints `[native code]` for
// built-ins: "function get webdriver() { [native code] }" in Chromium, with line breaks
// ("function webdriver() {\n    [native code]\n}") in Firefox and Safari. Stealth patches
// replace getters with JavaScript functions and then patch toString itself to print the native
// form, which is why callers also test other properties of the function (see api-lies.ts).
// The toString used is captured by the caller's realm at call time: if it was replaced, the
// lie test on Function.prototype.toString reports it.

const NATIVE = /^function (?:get |set )?([\w$]*)\(\) \{\s*\[native code\]\s*\}$/

export function isNativeFunction(fn: unknown, name?: string): boolean {
  if (typeof fn !== 'function') return false
  let src: string
  try {
    src = Function.prototype.toString.call(fn)
  } catch {
    return false
  }
  const m = NATIVE.exec(src)
  return !!m && (name === undefined || m[1] === name)
}

/**
 * Is this function a Proxy? Object.setPrototypeOf(fn, Object.create(fn)) throws "Cyclic
 * __proto__ value" on a real function; the spec's cycle check stops at a Proxy, so on a proxied
 * one it succeeds. The prototype is put back at once. (CreepJS "lies", proxy test.)
 */
export function isProxied(fn: object): boolean {
  const proto = Object.getPrototypeOf(fn)
  try {
    Object.setPrototypeOf(fn, Object.create(fn))
  } catch {
    return false
  }
  Object.setPrototypeOf(fn, proto)
  return true
}
