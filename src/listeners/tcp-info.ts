// The kernel's round-trip estimate for one accepted TCP connection: getsockopt(IPPROTO_TCP,
// TCP_INFO) fills a `struct tcp_info` (linux/include/uapi/linux/tcp.h) whose `tcpi_rtt` is the
// smoothed RTT in microseconds. Read right after accept, the server has sent nothing but its
// SYN-ACK, so the only sample is the handshake's: the round trip to whatever terminated the
// client's TCP connection (the browser, or a SOCKS/HTTP CONNECT proxy, Tor exit, or a
// userland port forwarder in front of the port).
//
// Also the SYN the client's kernel sent (issue 49, src/evidence/tcp-syn.ts): TCP_SAVE_SYN on the
// listening socket, TCP_SAVED_SYN once per accepted one (what redbean's `finger` and Apache's
// mod_tcpfingerprint read; no root, no raw socket).
//
// Neither Bun nor node:net exposes these options, so this calls libc through bun:ffi on the
// socket's file descriptor. Linux only (the struct layout and option number are Linux's); everywhere
// else, and on any failure, the answer is null: the RTT is evidence, never a reason to drop a
// connection.

import type { Server, Socket } from 'node:net'
import { endianness } from 'node:os'

const IPPROTO_TCP = 6
const TCP_INFO = 11
/** sizeof(struct tcp_info) on current kernels; older ones fill less and say so in optlen. */
const TCP_INFO_SIZE = 232
const TCPI_RTT_OFFSET = 68

type GetSockOpt = (fd: number, level: number, name: number, buf: Uint8Array, len: Uint32Array) => number
type SetSockOpt = (fd: number, level: number, name: number, buf: Uint8Array, len: number) => number

let libc: { getsockopt: GetSockOpt; setsockopt: SetSockOpt } | null | undefined

/** libc's getsockopt and setsockopt through bun:ffi, opened on first use; null when unavailable. */
function loadLibc(): { getsockopt: GetSockOpt; setsockopt: SetSockOpt } | null {
  if (libc !== undefined) return libc
  libc = null
  if (process.platform !== 'linux' || typeof Bun === 'undefined') return null
  try {
    // Loaded here, not imported at the top: nothing touches libc on other platforms or runtimes.
    const ffi = require('bun:ffi') as typeof import('bun:ffi')
    const lib = ffi.dlopen('libc.so.6', {
      getsockopt: { args: ['i32', 'i32', 'i32', 'ptr', 'ptr'], returns: 'i32' },
      setsockopt: { args: ['i32', 'i32', 'i32', 'ptr', 'u32'], returns: 'i32' },
    })
    libc = {
      getsockopt: (fd, level, name, buf, len) => lib.symbols.getsockopt(fd, level, name, buf, len),
      setsockopt: (fd, level, name, buf, len) => lib.symbols.setsockopt(fd, level, name, buf, len),
    }
  } catch {
    libc = null
  }
  return libc
}
const loadGetsockopt = () => loadLibc()?.getsockopt ?? null

/** A socket's or server's file descriptor, from Bun's node:net handle; null when it has none (closed, not Bun). */
function fdOf(socket: Socket | Server): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : null
}

const TCP_SAVE_SYN = 27
const TCP_SAVED_SYN = 28
/** An IPv6 header (40) and a TCP header with the most options (60), with room to spare. */
const SAVED_SYN_SIZE = 160

/**
 * Asks the kernel to keep the SYN of every connection this listening server accepts from now on
 * (TCP_SAVE_SYN, Linux 4.2+). One system call, once. false when it could not (another platform,
 * no descriptor, an older kernel): then savedSyn gives null.
 */
export function saveSyns(server: Server): boolean {
  try {
    const call = loadLibc()?.setsockopt
    const fd = fdOf(server)
    if (!call || fd === null) return false
    return call(fd, IPPROTO_TCP, TCP_SAVE_SYN, new Uint8Array(new Int32Array([1]).buffer), 4) === 0
  } catch {
    return false
  }
}

/**
 * The SYN (IP and TCP headers) the kernel kept for this accepted connection (TCP_SAVED_SYN: one
 * system call, and the kernel frees its copy as it hands it over), or null: not kept (saveSyns
 * was not called or failed), already read, another platform. Never throws.
 */
export function savedSyn(socket: Socket): Uint8Array | null {
  try {
    if (socket.destroyed) return null
    const call = loadGetsockopt()
    const fd = fdOf(socket)
    if (!call || fd === null) return null
    const buf = new Uint8Array(SAVED_SYN_SIZE)
    const len = new Uint32Array([SAVED_SYN_SIZE])
    if (call(fd, IPPROTO_TCP, TCP_SAVED_SYN, buf, len) !== 0 || len[0]! === 0) return null
    return buf.subarray(0, len[0]!)
  } catch {
    return null
  }
}

/**
 * The kernel's smoothed RTT of this TCP connection in microseconds (`tcpi_rtt`), or null on
 * other platforms, for a socket without a descriptor, or when getsockopt fails. Never throws.
 */
export function tcpRttMicros(socket: Socket): number | null {
  try {
    if (socket.destroyed) return null
    const call = loadGetsockopt()
    const fd = fdOf(socket)
    if (!call || fd === null) return null
    const buf = new Uint8Array(TCP_INFO_SIZE)
    const len = new Uint32Array([TCP_INFO_SIZE])
    if (call(fd, IPPROTO_TCP, TCP_INFO, buf, len) !== 0) return null
    if (len[0]! < TCPI_RTT_OFFSET + 4) return null
    const rtt = new DataView(buf.buffer).getUint32(TCPI_RTT_OFFSET, endianness() === 'LE')
    return rtt > 0 ? rtt : null
  } catch {
    return null
  }
}
