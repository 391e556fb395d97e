import type { RuntimeConfig } from "./types"
import { shapeDelivery, type WebhookShape } from "./webhook-shapes"

export interface WebhookBody {
  order_id: string
  hash: string
  uuid: string
  status: "successful" | "failed"
  message: string
  type: "credit_card" | "bank_transfer"
  amount: number
  currency: string
  transaction_id: string
}

export interface WebhookAttempt {
  attempt: number
  time: string
  url: string
  http_status?: number
  error?: string
  duration_ms: number
}

export type WebhookState =
  | "queued" // held while paused, waits for flush
  | "scheduled" // waiting for the first attempt (delayMs)
  | "sending"
  | "retrying" // an attempt failed, the next one is scheduled
  | "delivered" // the receiver answered HTTP 200
  | "gave_up" // every retry failed
  | "undelivered" // no webhook URL configured when it was built

export interface WebhookRecord {
  id: number
  payment_uuid: string
  body: WebhookBody
  /** The shape it was delivered in (the settings' when it was built). */
  shape: WebhookShape
  state: WebhookState
  attempts: WebhookAttempt[]
  created_at: string
  delivered_at?: string
  next_attempt_at?: string
  duplicate_of?: number
  resend_of?: number
}

export interface WebhookSettings {
  paused: boolean
  duplicate: number
  delayMs: number
  reorder: boolean
  /** How notifications go on the wire (webhook-shapes.ts): every shape spec §6.2 does not forbid. */
  shape: WebhookShape
}

const ATTEMPT_TIMEOUT_MS = 10_000

const defaultSettings = (): WebhookSettings => ({ paused: false, duplicate: 0, delayMs: 0, reorder: false, shape: "standard" })

export class WebhookDispatcher {
  records: WebhookRecord[] = []
  settings: WebhookSettings = defaultSettings()
  private queue: WebhookRecord[] = []
  private timers = new Set<NodeJS.Timeout>()
  private abort = new AbortController()
  private seq = 0
  private closed = false

  constructor(
    private readonly getConfig: () => RuntimeConfig,
    private readonly log: (line: string) => void
  ) {}

  /** Builds the notification (plus `duplicate` copies) and hands them to delivery. */
  notify(paymentUuid: string, body: WebhookBody): WebhookRecord[] {
    const first = this.create(paymentUuid, body)
    const out = [first]
    for (let i = 0; i < this.settings.duplicate; i++) out.push(this.create(paymentUuid, body, { duplicate_of: first.id }))
    for (const r of out) this.dispatch(r)
    return out
  }

  resend(id: number): WebhookRecord | undefined {
    const original = this.records.find((r) => r.id === id)
    if (!original) return undefined
    const rec = this.create(original.payment_uuid, original.body, { resend_of: id })
    if (!this.getConfig().webhookUrl) rec.state = "undelivered"
    else void this.attempt(rec) // a manual resend ignores pause and delay
    return rec
  }

  /** Delivers what was queued while paused (reversed when `reorder`); resolves after each first attempt. */
  async flush(): Promise<number> {
    const items = this.queue.splice(0)
    if (this.settings.reorder) items.reverse()
    for (const r of items) {
      if (this.closed) break
      await this.attempt(r)
    }
    return items.length
  }

  get queuedCount(): number {
    return this.queue.length
  }

  reset(): void {
    this.clearTimers()
    this.abort.abort()
    this.abort = new AbortController()
    this.records = []
    this.queue = []
    this.settings = defaultSettings()
  }

  close(): void {
    this.closed = true
    this.clearTimers()
    this.abort.abort()
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
  }

  private create(paymentUuid: string, body: WebhookBody, extra: Partial<WebhookRecord> = {}): WebhookRecord {
    const rec: WebhookRecord = {
      id: ++this.seq,
      payment_uuid: paymentUuid,
      body: { ...body },
      shape: this.settings.shape,
      state: "scheduled",
      attempts: [],
      created_at: new Date().toISOString(),
      ...extra,
    }
    this.records.push(rec)
    return rec
  }

  private dispatch(rec: WebhookRecord): void {
    if (!this.getConfig().webhookUrl) {
      rec.state = "undelivered"
      this.log(`webhook #${rec.id} ${rec.body.status} ${rec.body.uuid}: no webhook URL configured, not sent`)
      return
    }
    if (this.settings.paused) {
      rec.state = "queued"
      this.queue.push(rec)
      return
    }
    this.schedule(rec, this.settings.delayMs)
  }

  private schedule(rec: WebhookRecord, delayMs: number): void {
    if (this.closed) return
    rec.next_attempt_at = new Date(Date.now() + delayMs).toISOString()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.attempt(rec)
    }, delayMs)
    this.timers.add(timer)
  }

  private async attempt(rec: WebhookRecord): Promise<void> {
    const url = this.getConfig().webhookUrl
    if (this.closed) return
    if (!url) {
      rec.state = "undelivered"
      return
    }
    rec.state = "sending"
    rec.next_attempt_at = undefined
    const started = Date.now()
    const attempt: WebhookAttempt = { attempt: rec.attempts.length + 1, time: new Date().toISOString(), url, duration_ms: 0 }
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)])
    try {
      const delivery = shapeDelivery(rec.body, rec.shape)
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": delivery.contentType, "user-agent": "odeme-emulator-webhook/1.0" },
        body: delivery.text,
        signal,
        redirect: "manual",
      })
      attempt.http_status = res.status
      await res.arrayBuffer().catch(() => undefined)
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause
      attempt.error = err instanceof Error ? `${err.name}: ${cause?.message ?? err.message}` : String(err)
    }
    attempt.duration_ms = Date.now() - started
    if (this.closed || !this.records.includes(rec)) return
    rec.attempts.push(attempt)
    if (attempt.http_status === 200) {
      rec.state = "delivered"
      rec.delivered_at = new Date().toISOString()
      this.log(`webhook #${rec.id} ${rec.body.status} ${rec.body.uuid} delivered (attempt ${attempt.attempt})`)
      return
    }
    const delays = this.getConfig().webhookRetryDelaysMs
    const next = delays[rec.attempts.length - 1]
    this.log(
      `webhook #${rec.id} attempt ${attempt.attempt} failed (${attempt.http_status ?? attempt.error})` +
        (next === undefined ? ", giving up" : `, retry in ${next} ms`)
    )
    if (next === undefined) {
      rec.state = "gave_up"
      return
    }
    rec.state = "retrying"
    this.schedule(rec, next)
  }
}
