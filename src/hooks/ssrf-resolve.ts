/**
 * The SSRF guard's resolve-and-check step. A host name is resolved exactly once; every address it
 * resolves to must pass `checkAddress`; the caller then connects to the returned address and never
 * resolves again, so there is no window in which DNS can be rebound to another address.
 */
import { lookup } from "node:dns/promises";
import { type AddressClass, checkAddress, ipLiteralOf } from "./ssrf.js";

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (default: `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, as every other program on the machine sees names. */
export const systemResolver: Resolver = async (hostname) => lookup(hostname, { all: true });

/** The outcome of checking a URL's host: the one address to connect to, or why not. */
export type TargetCheck =
  | { ok: true; address: string; family: 4 | 6 }
  | {
      ok: false;
      /** "refused": the guard said no; "unresolved": DNS gave no usable answer. */
      reason: "refused" | "unresolved";
      message: string;
      /** The refused address and its class, when the guard refused. */
      address?: string;
      class?: AddressClass;
    };

/** Options for `checkTarget`. */
export interface CheckTargetOptions {
  /** A WHATWG-parsed URL's hostname (IPv6 in brackets). */
  hostname: string;
  allowPrivateNetworks: boolean;
  /** Default true (http hooks); web_fetch refuses loopback unless the user's settings allow. */
  allowLoopback?: boolean;
  /** Who is refused, for the message ("http hooks", "web_fetch"). */
  who?: string;
  resolver?: Resolver;
}

function refusal(
  hostname: string,
  address: string,
  cls: AddressClass,
  opts: CheckTargetOptions,
): TargetCheck {
  const via = hostname.replace(/^\[|\]$/g, "") === address ? "" : ` (${hostname} resolves to it)`;
  return {
    ok: false,
    reason: "refused",
    address,
    class: cls,
    message:
      `refused to connect to ${address}${via}: ${cls} address. ` +
      (cls === "private" || cls === "link-local" || cls === "cgnat" || cls === "unique-local"
        ? 'Private networks are reachable only when the user-level setting "allowPrivateNetworks" is true.'
        : cls === "loopback"
          ? `${opts.who ?? "this request"} may not reach loopback addresses unless the user's settings allow it.`
          : `${opts.who ?? "http hooks"} may reach ${opts.allowLoopback === false ? "" : "loopback and "}public addresses only.`),
  };
}

/** Resolves `hostname` once and checks every address. Never throws. */
export async function checkTarget(opts: CheckTargetOptions): Promise<TargetCheck> {
  const guard = {
    allowPrivateNetworks: opts.allowPrivateNetworks,
    ...(opts.allowLoopback !== undefined ? { allowLoopback: opts.allowLoopback } : {}),
  };
  const literal = ipLiteralOf(opts.hostname);
  if (literal) {
    const verdict = checkAddress(literal.address, guard);
    return verdict.allowed
      ? { ok: true, address: literal.address, family: literal.family }
      : refusal(opts.hostname, literal.address, verdict.class, opts);
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (opts.resolver ?? systemResolver)(opts.hostname);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      reason: "unresolved",
      message: `cannot resolve ${opts.hostname}: ${detail}`,
    };
  }
  if (addresses.length === 0) {
    return { ok: false, reason: "unresolved", message: `${opts.hostname} resolves to no address` };
  }
  // Every address must pass: a name that answers with one public and one private address is
  // refused outright, whichever one a connection would have used.
  let chosen: { address: string; family: 4 | 6 } | null = null;
  for (const { address } of addresses) {
    const literalOfResolved = ipLiteralOf(address);
    const verdict = checkAddress(address, guard);
    if (!verdict.allowed || !literalOfResolved) {
      return refusal(opts.hostname, address, verdict.class, opts);
    }
    chosen ??= literalOfResolved;
  }
  if (!chosen) {
    return { ok: false, reason: "unresolved", message: `${opts.hostname} resolves to no address` };
  }
  return { ok: true, ...chosen };
}
