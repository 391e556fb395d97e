/**
 * The seeded products' images are files of the demo storefront (demo/storefront/img),
 * so their address is the storefront's. The seed runs once and stores the address of
 * that run; the storefront's port may move later (ODEME_DEMO_STOREFRONT_PORT, e.g. for
 * the dtc-starter). So on every start the demo moves those images to the storefront's
 * current address through the Admin API: every client of the Store API gets images
 * that load, not only the demo's own page.
 */
const fs = require("node:fs")
const path = require("node:path")
const { requestJson } = require("../http")
const { adminToken } = require("./store-admin")

// The seed writes http://localhost:<port>; an image anywhere else is not the demo's to move.
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"])
const PAGE = 100

/** `url` at `storefrontUrl` when it is one of the demo storefront's images at another address; otherwise null. */
function movedImageUrl(url, storefrontUrl, imageFiles) {
  let u
  try {
    u = new URL(url)
  } catch {
    return null
  }
  const file = /^\/img\/([^/]+)$/.exec(u.pathname)?.[1]
  if (!file || !imageFiles.includes(file) || !LOOPBACK.has(u.hostname)) return null
  const target = new URL(`/img/${file}`, storefrontUrl)
  return u.origin === target.origin ? null : target.href
}

/** The Admin API updates that move `products`' demo images to `storefrontUrl`: `[{ id, body }]`. */
function imageUpdates(products, storefrontUrl, imageFiles) {
  const updates = []
  for (const product of products) {
    const body = {}
    const thumbnail = product.thumbnail ? movedImageUrl(product.thumbnail, storefrontUrl, imageFiles) : null
    if (thumbnail) body.thumbnail = thumbnail
    const images = product.images || []
    const moved = images.map((i) => movedImageUrl(i.url, storefrontUrl, imageFiles))
    // The Admin API replaces a product's images with the list it is given: all of them, moved or not.
    if (moved.some(Boolean)) body.images = images.map((i, n) => ({ url: moved[n] || i.url }))
    if (Object.keys(body).length) updates.push({ id: product.id, body })
  }
  return updates
}

/** Moves the demo images of every product to `cfg.storefrontUrl`; resolves with how many products changed. */
async function moveImagesToStorefront(cfg, log) {
  const imageFiles = fs.readdirSync(path.join(cfg.storefrontDir, "img"))
  const headers = { authorization: `Bearer ${await adminToken(cfg)}` }
  const products = []
  for (let offset = 0, count = Infinity; offset < count; offset += PAGE) {
    const res = await requestJson(`${cfg.backendUrl}/admin/products?limit=${PAGE}&offset=${offset}&fields=id,thumbnail,*images`, { headers })
    if (res.status !== 200) throw new Error(`listing the products: HTTP ${res.status} ${res.text.slice(0, 200)}`)
    products.push(...res.json.products)
    count = res.json.count
  }
  const updates = imageUpdates(products, cfg.storefrontUrl, imageFiles)
  for (const { id, body } of updates) {
    const res = await requestJson(`${cfg.backendUrl}/admin/products/${id}`, { method: "POST", headers, body })
    if (res.status !== 200) throw new Error(`moving the images of product ${id}: HTTP ${res.status} ${res.text.slice(0, 200)}`)
  }
  if (updates.length) log(`   product images moved to ${cfg.storefrontUrl}/img/ (${updates.length} products had an earlier run's address)`)
  return updates.length
}

module.exports = { movedImageUrl, imageUpdates, moveImagesToStorefront }
