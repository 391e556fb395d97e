import { getOdemeLanguage, listOdemeBanks } from "@lib/data/odeme"
import { retrieveOdemeBalance } from "@lib/data/odeme-balance"
import { odemeBalanceStrings } from "@lib/odeme/balance-strings"
import OdemeBalance from "@modules/checkout/components/odeme-balance"
import { Text } from "@modules/common/components/ui"
import { parseOdemeReturnParams } from "medusa-payment-odeme/storefront"
import { Metadata } from "next"

type Props = {
  params: Promise<{ countryCode: string; id: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

/** The tab's title in the shopper's language, like the page. */
export async function generateMetadata(): Promise<Metadata> {
  return { title: odemeBalanceStrings[await getOdemeLanguage()].title, robots: { index: false } }
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)

/**
 * The address Admin's "Copy payment link" gives when an order owes money
 * after an edit, exchange or claim: `/payment-collection/{id}?order_id=…`
 * (the starter's middleware adds the country). The plugin's return route
 * comes back here with `&status=…&session_id=…`.
 */
export default async function OdemeBalancePage(props: Props) {
  const [{ id }, searchParams, language] = await Promise.all([props.params, props.searchParams, getOdemeLanguage()])
  const orderId = first(searchParams.order_id)
  const balance = orderId ? await retrieveOdemeBalance(id, orderId) : null
  const back = parseOdemeReturnParams(searchParams)
  const banks = balance && balance.status !== "completed" ? await listOdemeBanks() : null

  return (
    <div className="content-container py-12 min-h-[50vh]">
      {balance ? (
        <OdemeBalance
          collectionId={id}
          balance={balance}
          banks={banks?.ok ? banks.value : []}
          returned={
            back ? { status: back.status, sessionId: back.sessionId, reason: back.reason, returnedFromCancel: back.returnedFromCancel } : null
          }
          language={language}
        />
      ) : (
        <Text className="txt-medium text-ui-fg-base" data-testid="odeme-balance-invalid">
          {odemeBalanceStrings[language].invalid}
        </Text>
      )}
    </div>
  )
}
