// People behind a TLS-inspecting proxy (issue 56): a person's browser, started as person.ts
// starts it (no automation, a fresh profile), whose machine sends everything through an
// intercepting proxy (tests/support/intercepting-proxy.ts: a local HTTP proxy that terminates
// the browser's TLS with a per-host certificate of its own CA and opens its own TLS connection
// to the service, as corporate gateways and antivirus HTTPS scanning do), with the proxy's CA
// trusted the way an administrator installs it (certutil into the NSS database the browser
// reads). The service sees the proxy's TLS (Node's OpenSSL) under a browser that really ran the
// page: the person stays human, and the tls-interception check warns (mustFind) on bot-detector
// over HTTPS, where the page's own connection is the wire. Over plain HTTP the wire is the page's
// side fetch to the HTTPS port, which bot-detector waits for 3 s at most: through the proxy, on a
// loaded machine, Firefox's was seen to go out after the page had submitted (its CONNECT 3.4 s
// after the page's request), and the task then has no TLS record to judge (na) — no warning, and
// nothing wrong either. The tools matrix requires the warning of tls-fingerprint on both.
// The proxy as it is set:
// - Chromium: --proxy-server (what the ProxyServer policy sets), with --proxy-bypass-list=<-loopback>,
//   the documented way to send loopback through the proxy too (Chromium bypasses 127.0.0.1 and
//   localhost by default: https://chromium.googlesource.com/chromium/src/+/HEAD/net/docs/proxy.md#implicit-bypass-rules);
//   HOME is a directory of the person's own whose .pki/nssdb trusts the proxy's CA.
// - Firefox: network.proxy.* in the profile's user.js (manual proxy for HTTP and HTTPS, what the
//   Proxy policy sets), network.proxy.allow_hijacking_localhost for loopback
//   (https://bugzilla.mozilla.org/show_bug.cgi?id=1535581); the proxy's CA in the profile's cert9.db.
// Over plain HTTP the page's side connection to the HTTPS port goes through the proxy too (CONNECT).

import { join } from 'node:path'
import { startInterceptingProxy, trustInNss, type InterceptingProxy } from '../support/intercepting-proxy'
import { chromiumArgs, firefoxLaunch, runPerson, type Launch, type Person, type PersonContext } from './person'

/** A person's context with the proxy their machine sends through. */
interface ProxiedContext extends PersonContext {
  proxy: InterceptingProxy
}

function proxyOf(ctx: PersonContext): InterceptingProxy {
  const proxy = (ctx as Partial<ProxiedContext>).proxy
  if (!proxy) throw new Error('Cannot start a person behind a proxy without the proxy: run it through Person.around')
  return proxy
}

function proxied(name: string, browser: 'chromium' | 'firefox', launch: (ctx: PersonContext, url: string, profile: string, proxy: InterceptingProxy) => Launch): Person {
  const around = async <T>(ctx: PersonContext, use: (ctx: PersonContext) => Promise<T>): Promise<T> => {
    const proxy = await startInterceptingProxy()
    try {
      return await use({ ...ctx, proxy } as ProxiedContext)
    } finally {
      await proxy.stop()
    }
  }
  const at = (ctx: PersonContext, url: string, profile: string) => launch(ctx, url, profile, proxyOf(ctx))
  return {
    name,
    expected: 'human',
    browser,
    mustFind: ['tls-interception'],
    mustFindOver: ['https'],
    around,
    launch: at,
    run: (ctx) => around(ctx, (c) => runPerson(c, browser, at(c, c.pageUrl, `${c.dir}/profile`))),
  }
}

export const PROXY_PEOPLE: Record<string, Person> = {
  'person-proxy': proxied('Person: headful Chromium on Xvfb behind a TLS-inspecting proxy (--proxy-server, its CA in the NSS database)', 'chromium', (ctx, url, profile, proxy) => {
    const home = `${profile}-home`
    trustInNss(join(home, '.pki/nssdb'), proxy.caFile)
    return { program: ctx.chromium, args: chromiumArgs(url, profile, [`--proxy-server=http://${proxy.host}`, '--proxy-bypass-list=<-loopback>']), env: { HOME: home } }
  }),
  'person-firefox-proxy': proxied('Person: Firefox ESR on Xvfb behind a TLS-inspecting proxy (network.proxy prefs, its CA in the profile)', 'firefox', (ctx, url, profile, proxy) => {
    const launch = firefoxLaunch(ctx, url, profile, {
      'network.proxy.type': 1,
      'network.proxy.http': '127.0.0.1',
      'network.proxy.http_port': proxy.port,
      'network.proxy.ssl': '127.0.0.1',
      'network.proxy.ssl_port': proxy.port,
      'network.proxy.no_proxies_on': '',
      'network.proxy.allow_hijacking_localhost': true,
    })
    trustInNss(profile, proxy.caFile)
    return launch
  }),
}
