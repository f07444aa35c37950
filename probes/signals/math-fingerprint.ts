// The FingerprintJS math component (src/sources/math.ts, after Tor ticket 13018 and
// https://bugzil.la/531915): transcendental functions at awkward arguments, natively and via
// the textbook identities. Engines and their versions round these differently (JavaScriptCore
// calls the OS's libm; V8 has its own fdlibm port but switched some functions to libm-derived
// code over time), so the values identify an engine build and OS: entropy for the hash.
export function mathFingerprint(): Record<string, number> {
  const M = Math
  return {
    acos: M.acos(0.12312423423423424),
    acosh: M.acosh(1e308),
    acoshPf: M.log(1e154 + M.sqrt(1e154 * 1e154 - 1)),
    asin: M.asin(0.12312423423423424),
    asinh: M.asinh(1),
    asinhPf: M.log(1 + M.sqrt(2)),
    atanh: M.atanh(0.5),
    atanhPf: M.log((1 + 0.5) / (1 - 0.5)) / 2,
    atan: M.atan(0.5),
    sin: M.sin(-1e300),
    sinh: M.sinh(1),
    sinhPf: M.exp(1) - 1 / M.exp(1) / 2,
    cos: M.cos(10.000000000123),
    cosh: M.cosh(1),
    coshPf: (M.exp(1) + 1 / M.exp(1)) / 2,
    tan: M.tan(-1e300),
    tanh: M.tanh(1),
    tanhPf: (M.exp(2) - 1) / (M.exp(2) + 1),
    exp: M.exp(1),
    expm1: M.expm1(1),
    expm1Pf: M.exp(1) - 1,
    log1p: M.log1p(10),
    log1pPf: M.log(11),
    powPI: M.pow(M.PI, -100),
  }
}
