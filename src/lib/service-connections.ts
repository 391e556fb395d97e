import { DEFAULT_CONNECTIONS } from "../client"
import type { OdemeOptions } from "./options"

/** Connections kept beside the poller's for verify, checkout and admin calls. */
const CONNECTIONS_BESIDE_POLLER = 8

/**
 * One connection per concurrent poller check plus room for the rest, never
 * fewer than the client's default: a poller bounded by the pool would make
 * its concurrency setting a lie.
 */
export function serviceConnections(options: Pick<OdemeOptions, "transfer">): number {
  return Math.max(DEFAULT_CONNECTIONS, options.transfer.pollConcurrency + CONNECTIONS_BESIDE_POLLER)
}
