import { getOdemeLanguage, retrieveOdemeTransferDetails } from "@lib/data/odeme"
import { formatOdemeAmount, formatOdemeDeadline, odemeStrings } from "@lib/odeme/strings"
import { HttpTypes } from "@medusajs/types"
import Divider from "@modules/common/components/divider"
import { Container, Heading, Text } from "@modules/common/components/ui"
import OdemeCopyButton from "./copy-button"

type Props = {
  order: HttpTypes.StoreOrder
}

/** The states in which the customer still has to send the money. */
const AWAITING = new Set(["pending", "awaiting_transfer"])
const RECEIVED = new Set(["paid"])

/**
 * Below the starter's PaymentDetails on the order-confirmed page: where to
 * send a bank transfer (bank, holder, IBAN with a copy button, exact amount),
 * what to write in its description (the order number, `#1234`), by when
 * (`transfer.expiryHours` after it was created, in the customer's language and
 * the shop's time zone) and the service's tracking number. Renders nothing for orders paid another way. An order that waits
 * for a transfer has no Medusa payment yet, so PaymentDetails shows nothing
 * for it; this block is what the customer needs.
 */
export default async function OdemeTransferDetails({ order }: Props) {
  const [details, language] = await Promise.all([retrieveOdemeTransferDetails(order.id), getOdemeLanguage()])
  if (!details) return null
  const t = odemeStrings[language]
  const { data, closed } = details
  const state = data.state ?? "pending"
  // A paid transfer stays "received" on a canceled order (the shop refunds it); an unpaid one is closed.
  const awaiting = AWAITING.has(state) && !closed
  // The shopper's reference is the order number the shop and its e-mails use, never an internal id.
  const orderNumber = order.display_id ? `#${order.display_id}` : null
  const iban = data.iban_display ?? data.iban
  const rows: Array<[string, string | null | undefined, string, string | null]> = [
    [t.bank, data.bank_name, "odeme-bank-name", null],
    [t.accountHolder, data.account_holder, "odeme-account-holder", null],
    [t.iban, iban, "odeme-iban", data.iban ?? iban ?? null],
    [t.amount, formatOdemeAmount(data.amount, data.currency, language), "odeme-amount", null],
    [t.reference, awaiting ? orderNumber : null, "odeme-reference", orderNumber],
    [t.deadline, awaiting && data.expires_at ? formatOdemeDeadline(data.expires_at, language) : null, "odeme-deadline", null],
    [t.sender, data.payer_name, "odeme-payer-name", null],
    [t.trackingNo, data.tracking_no, "odeme-tracking-no", null],
  ]

  return (
    <div data-testid="odeme-transfer-details" data-state={state}>
      <Heading level="h2" className="flex flex-row text-3xl-regular my-6">
        {t.transferDetails}
      </Heading>
      <Text className="txt-medium text-ui-fg-base mb-4">
        {RECEIVED.has(state) ? t.transferReceived : awaiting ? t.transferWaiting : t.transferClosed}
      </Text>
      <Container className="bg-ui-bg-subtle">
        <dl className="grid grid-cols-1 small:grid-cols-[max-content_1fr] gap-x-8 gap-y-2 txt-medium">
          {rows
            .filter(([, value]) => !!value)
            .map(([label, value, testId, copyValue]) => (
              <div key={testId} className="contents">
                <dt className="text-ui-fg-subtle">{label}</dt>
                <dd className="flex flex-wrap items-center gap-x-3 text-ui-fg-base" data-testid={`${testId}-row`}>
                  <span className={testId === "odeme-iban" ? "font-mono" : undefined} data-testid={testId}>
                    {value}
                  </span>
                  {awaiting && copyValue && (
                    <OdemeCopyButton value={copyValue} label={t.copy} copiedLabel={t.copied} data-testid={`${testId}-copy`} />
                  )}
                </dd>
              </div>
            ))}
        </dl>
        {awaiting && orderNumber && <Text className="txt-small text-ui-fg-subtle mt-4">{t.referenceHint}</Text>}
      </Container>
      <Divider className="mt-8" />
    </div>
  )
}
