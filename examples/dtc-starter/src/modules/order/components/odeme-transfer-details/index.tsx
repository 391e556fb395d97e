import { getOdemeLanguage, retrieveOdemeTransferDetails } from "@lib/data/odeme"
import { formatOdemeAmount, odemeStrings } from "@lib/odeme/strings"
import { HttpTypes } from "@medusajs/types"
import Divider from "@modules/common/components/divider"
import { Container, Heading, Text } from "@modules/common/components/ui"

type Props = {
  order: HttpTypes.StoreOrder
}

/** The states in which the customer still has to send the money. */
const AWAITING = new Set(["pending", "awaiting_transfer"])
const RECEIVED = new Set(["paid"])

/**
 * Below the starter's PaymentDetails on the order-confirmed page: where to
 * send a bank transfer (bank, holder, IBAN, exact amount) and its tracking
 * number. Renders nothing for orders paid another way. An order that waits
 * for a transfer has no Medusa payment yet, so PaymentDetails shows nothing
 * for it; this block is what the customer needs.
 */
export default async function OdemeTransferDetails({ order }: Props) {
  const [details, language] = await Promise.all([retrieveOdemeTransferDetails(order.id), getOdemeLanguage()])
  if (!details) return null
  const t = odemeStrings[language]
  const { data } = details
  const state = data.state ?? "pending"
  const rows: Array<[string, string | null | undefined, string]> = [
    [t.bank, data.bank_name, "odeme-bank-name"],
    [t.accountHolder, data.account_holder, "odeme-account-holder"],
    [t.iban, data.iban_display ?? data.iban, "odeme-iban"],
    [t.amount, formatOdemeAmount(data.amount, data.currency, language), "odeme-amount"],
    [t.sender, data.payer_name, "odeme-payer-name"],
    [t.trackingNo, data.tracking_no, "odeme-tracking-no"],
    [t.reference, data.reference, "odeme-reference"],
  ]

  return (
    <div data-testid="odeme-transfer-details" data-state={state}>
      <Heading level="h2" className="flex flex-row text-3xl-regular my-6">
        {t.transferDetails}
      </Heading>
      <Text className="txt-medium text-ui-fg-base mb-4">
        {RECEIVED.has(state) ? t.transferReceived : AWAITING.has(state) ? t.transferWaiting : t.transferClosed}
      </Text>
      <Container className="bg-ui-bg-subtle">
        <dl className="grid grid-cols-1 small:grid-cols-[max-content_1fr] gap-x-8 gap-y-2 txt-medium">
          {rows
            .filter(([, value]) => !!value)
            .map(([label, value, testId]) => (
              <div key={testId} className="contents">
                <dt className="text-ui-fg-subtle">{label}</dt>
                <dd className={testId === "odeme-iban" ? "text-ui-fg-base font-mono" : "text-ui-fg-base"} data-testid={testId}>
                  {value}
                </dd>
              </div>
            ))}
        </dl>
      </Container>
      <Divider className="mt-8" />
    </div>
  )
}
