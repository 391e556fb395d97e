/**
 * Hand-written SVG bar charts for the bench (no dependency): one horizontal
 * bar per row with its min–max whisker, an optional tick (e.g. p50 on a p99
 * bar) and reference lines. Used by scripts/bench-report.js.
 */
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/**
 * @param {{ title: string, unit: string, log?: boolean, rows: Array<{ label: string, value: number, min?: number, max?: number, tick?: number, note?: string, group?: string }>, refs?: Array<{ value: number, label: string }> }} c
 */
function barChart(c) {
  const labelW = 330
  const plotW = 420
  const noteW = 230
  const rowH = 22
  const top = 48
  const groups = []
  for (const r of c.rows) if (r.group && !groups.includes(r.group)) groups.push(r.group)
  const lines = [] // [kind, payload]
  for (const r of c.rows) {
    if (r.group && lines.filter((l) => l[0] === "group" && l[1] === r.group).length === 0) lines.push(["group", r.group])
    lines.push(["row", r])
  }
  const height = top + lines.length * rowH + 40
  const values = c.rows.flatMap((r) => [r.value, r.max ?? r.value, r.min ?? r.value, r.tick ?? r.value]).concat((c.refs ?? []).map((x) => x.value))
  const hi = Math.max(...values.filter((v) => Number.isFinite(v)), 1) * 1.1
  const lo = c.log ? Math.max(0.5, Math.min(...values.filter((v) => v > 0)) / 1.5) : 0
  const x = (v) => {
    const t = c.log ? (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : v / hi
    return Math.round((labelW + Math.max(0, Math.min(1, t)) * plotW) * 10) / 10
  }
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + plotW + noteW}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${esc(c.title)}</text>`,
  ]
  const ticks = c.log
    ? [1, 10, 100, 1000, 10000, 100000].filter((t) => t >= lo && t <= hi)
    : [0, 0.25, 0.5, 0.75, 1].map((f) => +(f * hi).toPrecision(2))
  for (const t of ticks) {
    out.push(`<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${height - 34}" stroke="#ddd"/>`)
    out.push(`<text x="${x(t)}" y="${height - 20}" text-anchor="middle" fill="#555">${t}${esc(c.unit)}</text>`)
  }
  for (const ref of c.refs ?? []) {
    out.push(`<line x1="${x(ref.value)}" y1="${top - 10}" x2="${x(ref.value)}" y2="${height - 34}" stroke="#c00" stroke-dasharray="4 3"/>`)
    out.push(`<text x="${x(ref.value) + 3}" y="${top - 12}" fill="#c00">${esc(ref.label)}</text>`)
  }
  lines.forEach(([kind, r], i) => {
    const y = top + i * rowH
    if (kind === "group") {
      out.push(`<text x="10" y="${y + 15}" font-weight="bold">${esc(r)}</text>`)
      return
    }
    out.push(`<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(r.label)}</text>`)
    out.push(`<rect x="${labelW}" y="${y + 4}" width="${Math.max(1, x(r.value) - labelW)}" height="${rowH - 8}" fill="#4a7bd0"/>`)
    if (r.min != null && r.max != null) {
      const my = y + rowH / 2
      out.push(`<line x1="${x(r.min)}" y1="${my}" x2="${x(r.max)}" y2="${my}" stroke="#222"/>`)
      out.push(`<line x1="${x(r.min)}" y1="${my - 4}" x2="${x(r.min)}" y2="${my + 4}" stroke="#222"/>`)
      out.push(`<line x1="${x(r.max)}" y1="${my - 4}" x2="${x(r.max)}" y2="${my + 4}" stroke="#222"/>`)
    }
    if (r.tick != null) out.push(`<line x1="${x(r.tick)}" y1="${y + 2}" x2="${x(r.tick)}" y2="${y + rowH - 2}" stroke="#f90" stroke-width="3"/>`)
    out.push(`<text x="${labelW + plotW + 8}" y="${y + 15}" fill="#333">${esc(r.note ?? "")}</text>`)
  })
  out.push(`</svg>`)
  return out.join("\n") + "\n"
}

module.exports = { barChart }
