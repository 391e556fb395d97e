/** The demo store through its Admin API: logging in and enabling the plugin's providers. */
const { requestJson } = require("../http")

async function adminToken(cfg) {
  const res = await requestJson(`${cfg.backendUrl}/auth/user/emailpass`, { method: "POST", body: cfg.admin })
  if (res.status !== 200 || !res.json?.token) throw new Error(`admin login failed: HTTP ${res.status} ${res.text.slice(0, 200)}`)
  return res.json.token
}

/**
 * Enables every Odeme provider that is registered in the demo regions. Runs on each
 * start, so a provider added to the plugin after the first seed shows up too.
 */
async function syncRegionProviders(cfg, log) {
  const headers = { authorization: `Bearer ${await adminToken(cfg)}` }
  const providers = await requestJson(`${cfg.backendUrl}/admin/payments/payment-providers?limit=100`, { headers })
  const available = (providers.json?.payment_providers || []).map((p) => p.id)
  const wanted = cfg.wantedProviders.filter((id) => available.includes(id))
  const missing = cfg.wantedProviders.filter((id) => !available.includes(id))
  const regions = await requestJson(`${cfg.backendUrl}/admin/regions?limit=50&fields=id,name,*payment_providers`, { headers })
  for (const region of regions.json?.regions || []) {
    if (!["Türkiye", "Europe"].includes(region.name)) continue
    const has = (region.payment_providers || []).map((p) => p.id)
    if (wanted.every((id) => has.includes(id))) continue
    const res = await requestJson(`${cfg.backendUrl}/admin/regions/${region.id}`, {
      method: "POST",
      headers,
      body: { payment_providers: [...new Set([...has, ...wanted])] },
    })
    if (res.status !== 200) throw new Error(`enabling providers in region ${region.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`)
    log(`   enabled ${wanted.filter((id) => !has.includes(id)).join(", ")} in region ${region.name}`)
  }
  return { available, missing }
}

module.exports = { adminToken, syncRegionProviders }
