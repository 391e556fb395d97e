import { getOdemeLanguage } from "@lib/data/odeme"
import { odemeStrings } from "@lib/odeme/strings"
import OdemeReturn from "@modules/checkout/components/odeme-return"
import { Text } from "@modules/common/components/ui"
import { parseOdemeReturnParams } from "medusa-payment-odeme/storefront"
import { Metadata } from "next"

type Props = {
  params: Promise<{ countryCode: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

/** The tab's title in the shopper's language, like the page. */
export async function generateMetadata(): Promise<Metadata> {
  return { title: odemeStrings[await getOdemeLanguage()].returnTitle, robots: { index: false } }
}

/**
 * Where medusa-payment-odeme sends the customer back after the payment page
 * (the plugin's `checkout.returnPath`, or the session's `return_url`):
 * `?status=paid|pending|failed&session_id=…[&reason=…][&returned=cancel]`
 * (`returned=cancel`: canceled or declined on the service's page, not proof).
 * The redirect carries no cart id: the cart is the one in the starter's cart cookie.
 */
export default async function OdemeReturnPage(props: Props) {
  const [searchParams, language] = await Promise.all([props.searchParams, getOdemeLanguage()])
  const parsed = parseOdemeReturnParams(searchParams)

  return (
    <div className="content-container py-12 min-h-[50vh]">
      {parsed ? (
        <OdemeReturn {...parsed} language={language} />
      ) : (
        <Text className="txt-medium text-ui-fg-base" data-testid="odeme-return-invalid">
          {odemeStrings[language].invalidReturn}
        </Text>
      )}
    </div>
  )
}
