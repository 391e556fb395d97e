"use client"

import { listOdemeBanks } from "@lib/data/odeme"
import { useOdemeLanguage } from "@lib/odeme/language"
import { isPayerNameValid, type OdemeTransferChoice } from "@lib/odeme/session-data"
import { odemeStrings } from "@lib/odeme/strings"
import { HttpTypes } from "@medusajs/types"
import ErrorMessage from "@modules/checkout/components/error-message"
import { Text, clx } from "@modules/common/components/ui"
import { isOdemeTransfer, type OdemeBankAccount } from "medusa-payment-odeme/storefront"
import { useEffect, useState } from "react"

type Props = {
  cart: HttpTypes.StoreCart
  onChange: (choice: OdemeTransferChoice) => void
}

/** What the customer chose before (an existing transfer session), else the billing name. */
function initialChoice(cart: HttpTypes.StoreCart): OdemeTransferChoice {
  const session = cart.payment_collection?.payment_sessions?.find((s) => isOdemeTransfer(s.provider_id))
  const data = (session?.data ?? {}) as { bank_id?: unknown; customer_name?: unknown }
  const billing = [cart.billing_address?.first_name, cart.billing_address?.last_name].filter(Boolean).join(" ")
  return {
    bankId: typeof data.bank_id === "number" ? data.bank_id : null,
    payerName: typeof data.customer_name === "string" ? data.customer_name : billing,
  }
}

/**
 * The bank picker and the sender's name, shown inside the bank-transfer
 * option of the payment step. The choice goes into the payment session's
 * data; the transfer itself is created when the order is placed.
 */
const OdemeTransferFields = ({ cart, onChange }: Props) => {
  const t = odemeStrings[useOdemeLanguage()]
  const [banks, setBanks] = useState<OdemeBankAccount[] | null>(null)
  const [loadFailed, setLoadFailed] = useState(false)
  const [choice, setChoice] = useState<OdemeTransferChoice>(() => initialChoice(cart))
  const [nameTouched, setNameTouched] = useState(false)

  useEffect(() => {
    let live = true
    listOdemeBanks().then((result) => {
      if (!live) return
      if (!result.ok) return setLoadFailed(true)
      setBanks(result.value)
      // One account: nothing to choose.
      if (result.value.length === 1) setChoice((c) => (c.bankId === null ? { ...c, bankId: result.value[0].bank_id } : c))
    })
    return () => {
      live = false
    }
  }, [])

  useEffect(() => onChange(choice), [choice, onChange])

  if (loadFailed) return <ErrorMessage error={t.banksFailed} data-testid="odeme-banks-error" />
  if (!banks) return <Text className="txt-medium text-ui-fg-subtle py-2">{t.loadingBanks}</Text>
  if (banks.length === 0) return <ErrorMessage error={t.noBanks} data-testid="odeme-no-banks" />

  return (
    <div className="flex flex-col gap-y-4 pb-2" data-testid="odeme-transfer-fields">
      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-medium-plus text-ui-fg-base mb-2">{t.chooseBank}</legend>
        {banks.map((bank) => {
          const checked = choice.bankId === bank.bank_id
          return (
            <label
              key={bank.bank_id}
              className={clx(
                "flex items-start gap-x-3 border rounded-rounded px-4 py-3 cursor-pointer",
                checked ? "border-ui-border-interactive" : "border-ui-border-base"
              )}
              data-testid="odeme-bank-option"
            >
              <input
                type="radio"
                name="odeme-bank"
                className="mt-1"
                value={bank.bank_id}
                checked={checked}
                onChange={() => setChoice((c) => ({ ...c, bankId: bank.bank_id }))}
              />
              <span className="flex flex-col">
                <span className="txt-medium-plus text-ui-fg-base">{bank.bank_name}</span>
                <span className="txt-small text-ui-fg-subtle">
                  {t.accountHolder}: {bank.account_holder}
                </span>
                <span className="txt-small text-ui-fg-subtle font-mono">{bank.iban_display}</span>
              </span>
            </label>
          )
        })}
      </fieldset>
      <label className="flex flex-col gap-y-1">
        <span className="txt-medium-plus text-ui-fg-base">{t.payerName}</span>
        <input
          className="h-11 px-4 border rounded-md bg-ui-bg-field border-ui-border-base"
          name="odeme-payer-name"
          autoComplete="name"
          maxLength={100}
          value={choice.payerName}
          onChange={(e) => setChoice((c) => ({ ...c, payerName: e.target.value }))}
          onBlur={() => setNameTouched(true)}
          data-testid="odeme-payer-name"
        />
        <span className="txt-small text-ui-fg-subtle">{t.payerNameHint}</span>
      </label>
      {nameTouched && !isPayerNameValid(choice.payerName) && <ErrorMessage error={t.payerNameTooShort} />}
    </div>
  )
}

export default OdemeTransferFields
