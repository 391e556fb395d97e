/**
 * Seeds the demo store (run once by `npm run demo`, with
 * `medusa exec ./src/scripts/seed.ts` in demo/):
 * - regions "Türkiye" (TRY, tr) and "Europe" (EUR, de/fr/nl) with the Odeme providers;
 * - a sales channel and a publishable API key linked to it (token written to
 *   $DEMO_DATA_DIR/publishable-key.txt for the storefront);
 * - a stock location, fulfillment set and one flat "Standart Kargo" per region;
 * - 3 products priced in TRY and EUR, without inventory management.
 * Safe to run again: it stops early when the regions already exist (it only
 * re-writes the publishable key file).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, ProductStatus } from "@medusajs/framework/utils"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"

const WANTED_PROVIDERS = ["pp_odeme-checkout_odeme", "pp_odeme-transfer_odeme", "pp_system_default"]
const SALES_CHANNEL = "Odeme Demo Store"
const KEY_TITLE = "Odeme demo storefront"
// The storefront serves the images; scripts/demo.js passes its address (the port may be changed).
const STOREFRONT = (process.env.DEMO_STOREFRONT_URL || "http://localhost:8000").replace(/\/$/, "")

function writeKey(token: string) {
  const dir = process.env.DEMO_DATA_DIR || path.resolve(process.cwd(), ".data")
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "publishable-key.txt"), token + "\n")
}

export default async function seedDemo({ container }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const salesChannels = container.resolve(Modules.SALES_CHANNEL)
  const storeModule = container.resolve(Modules.STORE)
  const paymentModule = container.resolve(Modules.PAYMENT)
  const regionModule = container.resolve(Modules.REGION)
  const apiKeys = container.resolve(Modules.API_KEY)

  const existing = await regionModule.listRegions({ name: ["Türkiye", "Europe"] })
  if (existing.length) {
    logger.info("[seed] regions already exist: skipping the seed")
    const [key] = await apiKeys.listApiKeys({ title: KEY_TITLE, type: "publishable" })
    if (key) writeKey(key.token)
    return
  }

  // Providers the running plugin registers; a provider that is not there yet
  // (still being written) is left out here and added by scripts/demo.js later.
  const available = (await paymentModule.listPaymentProviders({})).map((p) => p.id)
  const providers = WANTED_PROVIDERS.filter((id) => available.includes(id))
  const missing = WANTED_PROVIDERS.filter((id) => !available.includes(id))
  if (missing.length) logger.warn(`[seed] payment providers not registered (left out): ${missing.join(", ")}`)

  // Store, sales channel, currencies.
  const [store] = await storeModule.listStores()
  let [channel] = await salesChannels.listSalesChannels({ name: SALES_CHANNEL })
  if (!channel) {
    const { result } = await createSalesChannelsWorkflow(container).run({
      input: { salesChannelsData: [{ name: SALES_CHANNEL, description: "Storefront of the medusa-payment-odeme demo" }] },
    })
    channel = result[0]
  }
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: "Odeme Demo",
        supported_currencies: [{ currency_code: "try", is_default: true }, { currency_code: "eur" }],
        default_sales_channel_id: channel.id,
      },
    },
  })

  // Regions.
  logger.info("[seed] regions")
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: "Türkiye", currency_code: "try", countries: ["tr"], payment_providers: providers, automatic_taxes: true },
        { name: "Europe", currency_code: "eur", countries: ["de", "fr", "nl"], payment_providers: providers, automatic_taxes: true },
      ],
    },
  })
  const turkey = regions.find((r) => r.currency_code === "try")!
  const europe = regions.find((r) => r.currency_code === "eur")!
  await createTaxRegionsWorkflow(container).run({
    input: ["tr", "de", "fr", "nl"].map((country_code) => ({ country_code, provider_id: "tp_system" })),
  })

  // Stock location + fulfillment.
  logger.info("[seed] stock location and shipping")
  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: {
      locations: [{ name: "İstanbul Depo", address: { city: "İstanbul", country_code: "TR", address_1: "Demo Cad. 1" } }],
    },
  })
  const location = locations[0]
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" },
  })

  let [profile] = await fulfillment.listShippingProfiles({ type: "default" })
  if (!profile) {
    const { result } = await createShippingProfilesWorkflow(container).run({
      input: { data: [{ name: "Default Shipping Profile", type: "default" }] },
    })
    profile = result[0]
  }

  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: "Odeme demo delivery",
    type: "shipping",
    service_zones: [
      { name: "Türkiye", geo_zones: [{ country_code: "tr", type: "country" }] },
      {
        name: "Europe",
        geo_zones: ["de", "fr", "nl"].map((country_code) => ({ country_code, type: "country" as const })),
      },
    ],
  })
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  })
  const zone = (name: string) => fulfillmentSet.service_zones.find((z) => z.name === name)!.id

  const shippingOption = (name: string, serviceZone: string, regionId: string, currency: string, amount: number) => ({
    name,
    price_type: "flat" as const,
    provider_id: "manual_manual",
    service_zone_id: serviceZone,
    shipping_profile_id: profile.id,
    type: { label: "Standart", description: "2-4 iş günü / 2-4 business days", code: "standard" },
    prices: [
      { currency_code: currency, amount },
      { region_id: regionId, amount },
    ],
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
      { attribute: "is_return", value: "false", operator: "eq" as const },
    ],
  })
  await createShippingOptionsWorkflow(container).run({
    input: [
      shippingOption("Standart Kargo", zone("Türkiye"), turkey.id, "try", 50),
      shippingOption("Standart Kargo", zone("Europe"), europe.id, "eur", 5),
    ],
  })
  await linkSalesChannelsToStockLocationWorkflow(container).run({
    input: { id: location.id, add: [channel.id] },
  })

  // Publishable key.
  logger.info("[seed] publishable API key")
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: KEY_TITLE, type: "publishable", created_by: "" }] },
  })
  const key = keys[0]
  await linkSalesChannelsToApiKeyWorkflow(container).run({
    input: { id: key.id, add: [channel.id] },
  })
  writeKey(key.token)

  // Products.
  logger.info("[seed] products")
  const product = (title: string, handle: string, description: string, sku: string, tryAmount: number, eurAmount: number, thumbnail: string) => ({
    title,
    handle,
    description,
    status: ProductStatus.PUBLISHED,
    shipping_profile_id: profile.id,
    thumbnail,
    options: [{ title: "Boyut", values: ["Standart"] }],
    variants: [
      {
        title: "Standart",
        sku,
        manage_inventory: false,
        options: { Boyut: "Standart" },
        prices: [
          { amount: tryAmount, currency_code: "try" },
          { amount: eurAmount, currency_code: "eur" },
        ],
      },
    ],
    sales_channels: [{ id: channel.id }],
  })
  await createProductsWorkflow(container).run({
    input: {
      products: [
        product(
          "Türk kahvesi 250 g",
          "turk-kahvesi",
          "Taze çekilmiş Türk kahvesi / Freshly ground Turkish coffee",
          "KAHVE-250",
          250,
          7,
          `${STOREFRONT}/img/kahve.svg`
        ),
        product(
          "Lokum kutusu",
          "lokum-kutusu",
          "Güllü ve fıstıklı lokum, 500 g / Rose and pistachio Turkish delight, 500 g",
          "LOKUM-500",
          320,
          9,
          `${STOREFRONT}/img/lokum.svg`
        ),
        product(
          "Çay bardağı seti",
          "cay-bardagi-seti",
          "6 ince belli çay bardağı ve tabağı / 6 tulip tea glasses with saucers",
          "CAY-SET-6",
          450,
          12,
          `${STOREFRONT}/img/cay.svg`
        ),
      ],
    },
  })

  const { data: check } = await query.graph({ entity: "product", fields: ["id"] })
  logger.info(`[seed] done: ${regions.length} regions, ${check.length} products, providers ${providers.join(", ")}`)
}
