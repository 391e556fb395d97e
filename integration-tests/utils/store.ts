import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateInventoryLevelsWorkflow,
} from "@medusajs/medusa/core-flows"

export const TRANSFER_PROVIDER = "pp_odeme-transfer_odeme"
export const CHECKOUT_PROVIDER = "pp_odeme-checkout_odeme"

export interface SeededStore {
  publishableKey: string
  regionId: string
  salesChannelId: string
  variantId: string
  headers: { headers: Record<string, string> }
}

/**
 * A minimal store: one sales channel and publishable key, one region with the
 * plugin's providers, and one product that needs no shipping (so a cart can
 * be completed with payment alone).
 */
export async function seedStore(
  container: MedusaContainer,
  opts: { currency?: string; price?: number; providers?: string[] } = {}
): Promise<SeededStore> {
  const currency = opts.currency ?? "try"
  const {
    result: [salesChannel],
  } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Web" }] },
  })
  const {
    result: [apiKey],
  } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "test" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: apiKey.id, add: [salesChannel.id] } })
  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: `Region ${currency.toUpperCase()}`,
          currency_code: currency,
          countries: [currency === "try" ? "tr" : currency === "usd" ? "us" : currency === "gbp" ? "gb" : "de"],
          payment_providers: opts.providers ?? [TRANSFER_PROVIDER],
        },
      ],
    },
  })
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Türk kahvesi",
          status: "published",
          options: [{ title: "Boyut", values: ["250 g"] }],
          variants: [
            {
              title: "250 g",
              options: { Boyut: "250 g" },
              manage_inventory: false,
              prices: [{ amount: opts.price ?? 250, currency_code: currency }],
            },
          ],
          sales_channels: [{ id: salesChannel.id }],
        },
      ],
    },
  })
  return {
    publishableKey: apiKey.token,
    regionId: region.id,
    salesChannelId: salesChannel.id,
    variantId: product.variants[0].id,
    headers: { headers: { "x-publishable-api-key": apiKey.token } },
  }
}

/**
 * A product whose stock Medusa manages, in a location of the store's sales
 * channel, with nothing to ship (a cart is completed by its payment alone).
 * `setAvailable(n)` leaves exactly n to sell beside what orders reserved, so
 * "it sold out elsewhere" is `setAvailable(0)`.
 */
export async function stockedVariant(container: MedusaContainer, store: SeededStore, available: number) {
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Depo" }] } })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [store.salesChannelId] } })
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Lokum",
          status: "published",
          options: [{ title: "Kutu", values: ["1 kg"] }],
          variants: [{ title: "1 kg", options: { Kutu: "1 kg" }, manage_inventory: true, prices: [{ amount: 250, currency_code: "try" }] }],
          sales_channels: [{ id: store.salesChannelId }],
        },
      ],
    },
  })
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [variant],
  } = await query.graph({ entity: "product_variant", fields: ["inventory_items.inventory_item_id"], filters: { id: product.variants[0].id } })
  const inventoryItemId = (variant as any).inventory_items[0].inventory_item_id as string
  const inventory = container.resolve(Modules.INVENTORY)
  await inventory.updateInventoryItems({ id: inventoryItemId, requires_shipping: false })
  await createInventoryLevelsWorkflow(container).run({
    input: { inventory_levels: [{ inventory_item_id: inventoryItemId, location_id: location.id, stocked_quantity: available }] },
  })
  const setAvailable = async (n: number) => {
    const [level] = await inventory.listInventoryLevels({ inventory_item_id: inventoryItemId, location_id: location.id })
    await updateInventoryLevelsWorkflow(container).run({
      input: { updates: [{ inventory_item_id: inventoryItemId, location_id: location.id, stocked_quantity: Number(level.reserved_quantity) + n }] },
    })
  }
  return { variantId: product.variants[0].id as string, setAvailable }
}

/** A cart of one line (the seeded variant unless another is named) and its payment collection. */
export async function cartWithCollection(
  api: any,
  store: SeededStore,
  opts: { variantId?: string; quantity?: number; email?: string } = {}
): Promise<{ cart: any; collectionId: string }> {
  const {
    data: { cart },
  } = await api.post(
    "/store/carts",
    {
      region_id: store.regionId,
      sales_channel_id: store.salesChannelId,
      email: opts.email ?? "musteri@example.com",
      items: [{ variant_id: opts.variantId ?? store.variantId, quantity: opts.quantity ?? 1 }],
    },
    store.headers
  )
  const {
    data: { payment_collection },
  } = await api.post("/store/payment-collections", { cart_id: cart.id }, store.headers)
  return { cart, collectionId: payment_collection.id as string }
}

/** Cart with one item → payment collection → a session of the given provider. */
export async function cartWithSession(
  api: any,
  store: SeededStore,
  providerId: string,
  data: Record<string, unknown> = {},
  quantity = 1,
  /** Request headers of the session's creation (a storefront server passing its customer's address). */
  headers: Record<string, string> = {}
) {
  const { cart, collectionId } = await cartWithCollection(api, store, { quantity })
  const res = await api.post(
    `/store/payment-collections/${collectionId}/payment-sessions`,
    { provider_id: providerId, data },
    { headers: { ...store.headers.headers, ...headers }, validateStatus: () => true }
  )
  const session = res.data?.payment_collection?.payment_sessions?.[0]
  return { cart, collectionId, session, response: res }
}

/**
 * What the plugin sends the service as `order_id` for a session (issue 43): the short reference its data
 * holds (`shopper_reference`), the session id for a session from before references.
 */
export function serviceOrderIdOf(session: { id: string; data?: Record<string, unknown> | null }): string {
  return (session.data?.shopper_reference as string | null | undefined) ?? session.id
}

export async function completeCart(api: any, store: SeededStore, cartId: string) {
  return api.post(`/store/carts/${cartId}/complete`, {}, { ...store.headers, validateStatus: () => true })
}

/** A cart with a bank-transfer session the service keeps pending (the first bank of the list). */
export async function pendingTransferCart(api: any, store: SeededStore, customerName = "Hakan Çelik", headers: Record<string, string> = {}) {
  const { data: banks } = await api.get("/store/odeme/banks", store.headers)
  return cartWithSession(
    api,
    store,
    TRANSFER_PROVIDER,
    { bank_id: banks.bank_groups[0].accounts[0].bank_id, customer_name: customerName, sandbox_result: "pending" },
    1,
    headers
  )
}
