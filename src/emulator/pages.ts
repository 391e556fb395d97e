import { escapeHtml as e } from "./http-util"
import type { BankAccount } from "./fixtures"
import type { Payment } from "./types"

function layout(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="tr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)} · Ödeme (emulator)</title>
${head}
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;margin:0;color:#1d2330}
main{max-width:480px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 16px} .amount{font-size:32px;font-weight:700;margin:8px 0}
.badge{display:inline-block;background:#fde68a;color:#7c4a03;border-radius:6px;padding:2px 8px;font-size:12px;font-weight:600}
.muted{color:#6b7280;font-size:14px} form{margin:12px 0} button{width:100%;padding:12px;border:0;border-radius:8px;font-size:15px;cursor:pointer;margin:4px 0}
.ok{background:#16a34a;color:#fff}.bad{background:#dc2626;color:#fff}.warn{background:#f59e0b;color:#fff}.neutral{background:#2563eb;color:#fff}
label{display:block;font-size:14px;margin:8px 0 4px} input,select{width:100%;padding:10px;border:1px solid #d1d5db;border-radius:8px;box-sizing:border-box}
.error{border-left:4px solid #dc2626;padding:8px 12px;background:#fef2f2} dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;font-size:14px} dt{color:#6b7280}
code{font-size:13px}
</style>
</head>
<body><main>${body}</main></body>
</html>`
}

function header(p: Payment): string {
  return `<p>${p.mode === "sandbox" ? '<span class="badge" id="sandbox-badge">SANDBOX</span>' : '<span class="badge">LIVE (emulated)</span>'}</p>
<h1>Ödeme / Payment</h1>
<div class="amount" id="amount">${e(p.amount)} ${e(p.currency)}</div>
${p.requested_currency ? `<p class="muted" id="requested-amount">${e(p.requested_amount)} ${e(p.requested_currency)} converted to TRY</p>` : ""}
${p.description ? `<p id="description">${e(p.description)}</p>` : ""}
<p class="muted">Sipariş / Order: <code id="order-id">${e(p.order_id)}</code></p>`
}

export function sessionPage(p: Payment, opts: { transfer: boolean; banks: BankAccount[] }): string {
  const base = `/checkout/session/${encodeURIComponent(p.uuid)}`
  const cardForm = `<h2 style="font-size:16px">Kart ile öde / Pay by card</h2>
<form method="post" action="${base}/complete">
<button type="submit" class="ok" id="approve" name="outcome" value="approve">3D Onayla / 3D approve</button>
<button type="submit" class="bad" id="reject" name="outcome" value="reject">3D Reddet / 3D reject</button>
<button type="submit" class="warn" id="insufficient" name="outcome" value="insufficient">Yetersiz bakiye / Insufficient balance</button>
</form>`
  const transferForm = opts.transfer
    ? `<h2 style="font-size:16px">Havale / EFT</h2>
<form method="post" action="${base}/transfer" id="transfer-form">
<label for="sender_name">Gönderen ad soyad / Sender name</label>
<input id="sender_name" name="sender_name" required autocomplete="name">
<label for="bank_id">Banka / Bank</label>
<select id="bank_id" name="bank_id">${opts.banks.map((b) => `<option value="${b.bta_id}">${e(b.bta_name)}</option>`).join("")}</select>
<button type="submit" class="neutral" id="transfer">Havale ile öde / Pay by transfer</button>
</form>`
    : ""
  return layout("Ödeme", `${header(p)}${cardForm}${transferForm}`)
}

export function waitingPage(p: Payment): string {
  const t = p.transfer!
  const base = `/checkout/session/${encodeURIComponent(p.uuid)}`
  const sandboxButtons =
    p.mode === "sandbox"
      ? `<form method="post" action="${base}/transfer/settle">
<button type="submit" class="ok" id="transfer-approve" name="result" value="successful">Sandbox: havaleyi onayla / approve transfer</button>
<button type="submit" class="bad" id="transfer-reject" name="result" value="failed">Sandbox: havaleyi reddet / reject transfer</button>
</form>`
      : ""
  return layout(
    "Havale bekleniyor",
    `${header(p)}
<h2 style="font-size:16px" id="waiting">Havaleniz bekleniyor / Waiting for your transfer</h2>
<dl>
<dt>Banka</dt><dd id="bank-name">${e(t.br_bank_name)}</dd>
<dt>IBAN</dt><dd id="iban"><code>${e(t.br_iban)}</code></dd>
<dt>Gönderen</dt><dd id="sender">${e(t.br_name)}</dd>
<dt>Takip no</dt><dd id="tracking-no">${e(t.br_tracking_no)}</dd>
</dl>
<p class="muted">Bu sayfa otomatik yenilenir. This page refreshes itself every 2 seconds.</p>
${sandboxButtons}`,
    `<meta http-equiv="refresh" content="2">`
  )
}

export function resultPage(p: Payment): string {
  const ok = p.status === "successful"
  return layout(
    ok ? "Ödeme başarılı" : "Ödeme başarısız",
    `${header(p)}<p id="result" data-status="${e(p.status)}" class="${ok ? "" : "error"}">${
      ok ? "Ödeme başarılı / Payment successful" : e(p.failure_message ?? "Ödeme başarısız / Payment failed")
    }</p>`
  )
}

export function errorPage(status: number, reason: string): string {
  return layout("Hata", `<h1>İstek reddedildi / Request refused</h1><p class="error" id="error" data-status="${status}">${e(reason)}</p>`)
}
