import { randomUUID } from "node:crypto"

/**
 * Inserts `n` pending API transfers straight into the plugin's table (due now,
 * newest first by i), for the poller's scale test and benchmark. Without
 * `uuids` they are unknown to the emulator, so each check ends in a 404 and a
 * reschedule; with the uuids of transfers the emulator holds
 * (`transferSessionIds` + `POST /_control/transfers/bulk`), each check is a real "still waiting".
 */
export async function insertPendingTransfers(db: any, n: number, prefix: string, uuids?: string[]): Promise<void> {
  const now = Date.now()
  const sessions = transferSessionIds(n, prefix)
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `odpay_${prefix}${String(i).padStart(6, "0")}`,
    session_id: sessions[i],
    provider: "odeme-transfer",
    flow: "transfer_api",
    mode: "sandbox",
    amount: "10.00",
    currency: "TRY",
    status: "awaiting_transfer",
    creation_state: "created",
    service_uuid: uuids?.[i] ?? randomUUID(),
    next_check_at: new Date(now - 1000),
    created_at: new Date(now - i * 1000),
  }))
  for (let i = 0; i < rows.length; i += 1000) await db.batchInsert("odeme_payment", rows.slice(i, i + 1000), 1000)
}

/** The session ids insertPendingTransfers gives its rows. */
export function transferSessionIds(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => `payses_${prefix}${String(i).padStart(6, "0")}`)
}
