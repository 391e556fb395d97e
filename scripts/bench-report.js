#!/usr/bin/env node
/**
 * Turns bench-results/results.json into what people read, so every figure
 * shown comes from one run: the printed tables (with ratio columns and goals
 * met / not met), the SVG charts in bench/charts/, and the generated parts of
 * bench/RESULTS.md and docs/performance.md (between `<!-- bench:… -->`
 * markers; the text around them is kept). `npm run bench` runs it at the end;
 * `node scripts/bench-report.js` redoes it from the last results.json.
 */
const fs = require("node:fs")
const path = require("node:path")
const { barChart } = require("./bench-svg")

const ROOT = path.resolve(__dirname, "..")
const RESULTS = path.join(ROOT, "bench-results", "results.json")
const CHARTS = path.join(ROOT, "bench", "charts")

const range = (x, k, unit = "") => (x[`${k}_min`] != null && x.runs > 1 ? `${x[k]}${unit} (${x[`${k}_min`]}–${x[`${k}_max`]})` : `${x[k]}${unit}`)
const verdict = (met) => (met === null ? "not measured" : met ? "met" : "NOT met")

function machineLine(r) {
  const m = r.machine
  return `${m.cpus} cores (${m.cpu_model}), ${m.memory_gb ?? "?"} GB, Node ${m.node}, ${m.platform}, ${m.date.slice(0, 10)}`
}

const pm = (x) => (x && x.n ? `${x.p50} / ${x.max}` : "–")

/** One row of lock figures: the phases (when given), then the settle lock and the two cart locks. */
function lockRow(phases, lw) {
  const cart = lw.cart_lock
  return [
    phases ? pm(phases.sent_to_stored_ms) : "",
    phases ? pm(phases.stored_to_captured_ms) : "",
    phases ? phases.retried : "",
    pm(lw.settle_lock.wait_ms),
    pm(lw.settle_lock.job_ms),
    `${cart.plugin.refused} / ${cart.medusa.refused}`,
    `plugin ${pm(cart.plugin.wait_ms)}, Medusa ${pm(cart.medusa.wait_ms)}`,
  ]
}

/** The tables, as [title, head, rows]: printed as text and written as Markdown. */
function tables(r) {
  const out = []
  if (r.webhook_ingest)
    out.push([
      "Webhook ingest: median of runs (min–max), autocannon in its own process",
      ["route", "conn", "req/s", "p50 ms", "p99 ms", "non-2xx", "vs one INSERT", "vs core"],
      r.webhook_ingest.map((x) => [
        x.route,
        x.connections,
        range(x, "rps"),
        range(x, "p50"),
        range(x, "p99"),
        x.non2xx,
        `${x.rps_ratio_vs_insert_limit}×`,
        `${x.rps_ratio_vs_core}×`,
      ]),
    ])
  if (r.burst)
    out.push([
      "Burst: new notifications at once, one session each",
      ["at once", "non-2xx", "p50 ms", "p99 ms", "stored once", "processed once", "drained s", "p99 vs 300 ms", "core route p99 ms", "p99 vs core"],
      r.burst.map((b) => [
        b.concurrent,
        b.non2xx,
        range(b, "p50"),
        range(b, "p99"),
        `${b.stored_once}/${b.concurrent}`,
        `${b.processed_once}/${b.concurrent}`,
        b.drain_s,
        b.concurrent <= 200 ? `${Math.round((b.p99 / 300) * 100) / 100}×` : "",
        b.core_p99 === undefined ? "" : range(b, "core_p99"),
        b.p99_ratio_vs_core === undefined ? "" : `${b.p99_ratio_vs_core}×`,
      ]),
    ])
  if (r.time_to_paid) {
    const t = r.time_to_paid
    const afterDelay = t.core_p50_after_delay_ms ?? null
    out.push([
      `Time to paid: webhook sent → payment captured (one approval every ${t.plugin.spacing_ms} ms)`,
      ["path", "payments", "captured", "p50 ms", "p95 ms", "p50 after the core route's delay ms", "vs core after delay"],
      [
        [
          "plugin /odeme/webhook",
          t.plugin.payments,
          t.plugin.captured,
          t.plugin.ms.p50,
          t.plugin.ms.p95,
          t.plugin.ms.p50,
          t.p50_ratio_vs_core_after_delay === undefined ? "" : `${t.p50_ratio_vs_core_after_delay}×`,
        ],
        [
          `core /hooks/payment (reference provider; its event waits ${t.core_delay_ms ?? "?"} ms)`,
          t.core_reference.payments,
          t.core_reference.captured,
          t.core_reference.ms.p50,
          t.core_reference.ms.p95,
          afterDelay ?? "",
          "1×",
        ],
      ],
    ])
    const ph = t.plugin.phases
    const lw = t.plugin.lock_waits
    if (ph && lw)
      out.push([
        "Time to paid, where the plugin's time goes (p50 / max ms per payment; lock waits seen by wrapping Medusa's locking module)",
        [
          "sent → stored",
          "stored → captured",
          "webhooks retried",
          "settle lock wait",
          "settle lock held",
          "cart lock refusals (plugin / Medusa)",
          "cart lock wait",
        ],
        [lockRow(ph, lw)],
      ])
  }
  if (r.rush_hour) {
    const h = r.rush_hour
    out.push([
      `Rush hour: ${h.checkouts} card checkouts at once, the storefront completing each cart on return; beside them as many carts of Medusa's system provider`,
      ["path", "timed", "ms", "one order, one capture", "vs system provider"],
      [
        [
          "plugin (approve → webhook + return → capture)",
          "last approval → last capture",
          range(h, "last_capture_after_last_approval_ms"),
          `${h.one_capture}/${h.checkouts}`,
          `${h.ratio_vs_system}×`,
        ],
        [
          "pp_system_default (complete at once)",
          "completions sent → last order",
          range(h, "system_last_order_after_start_ms"),
          `${h.system_one_order}/${h.checkouts}`,
          "1×",
        ],
      ],
    ])
    if (h.lock_waits)
      out.push([
        "Rush hour, the plugin's storefront outcomes and lock waits (p50 / max ms)",
        ["storefront outcomes", "settle lock wait", "settle lock held", "cart lock refusals (plugin / Medusa)", "cart lock wait"],
        [
          [
            Object.entries(h.storefront ?? {})
              .map(([k, v]) => `${k} ${v}`)
              .join(", "),
            ...lockRow(null, h.lock_waits).slice(3),
          ],
        ],
      ])
  }
  if (r.poller)
    out.push([
      "Poller: one pass over due transfers, the service answering each check after 20 ms",
      [
        "transfers",
        "conc.",
        "workers",
        "pass ms",
        "limit ms",
        "pass/limit",
        "heap growth MB",
        "kept after GC MB",
        "checked once",
        "vs 1 worker",
        "due → done ms (vs 1 worker)",
      ],
      r.poller.map((x) => [
        x.transfers,
        x.concurrency,
        x.workers,
        range(x, "pass_ms"),
        x.limit_ms,
        `${x.ratio_to_limit}×`,
        x.heap_growth_mb ?? "",
        x.heap_retained_mb ?? "",
        x.checked_once ?? "",
        x.ratio_vs_single_worker ? `${x.ratio_vs_single_worker}×` : "",
        x.due_to_done_ms === undefined
          ? ""
          : `${range(x, "due_to_done_ms")}${x.due_to_done_ratio_vs_single_worker ? ` (${x.due_to_done_ratio_vs_single_worker}×)` : ""}`,
      ]),
    ])
  if (r.scale)
    out.push([
      "Cost as the store grows (finished payments and notifications)",
      ["rows each", "ingest p50 ms", "claim ms", "ingest p50 vs empty", "claim vs empty"],
      r.scale.map((s) => [s.rows, s.ingest_p50_ms, s.claim_ms, `${s.ingest_p50_ratio_vs_empty}×`, `${s.claim_ms_ratio_vs_empty}×`]),
    ])
  if (r.initiate_payment) {
    const i = r.initiate_payment
    out.push(["initiatePayment (Quick Checkout, in-process)", ["calls", "p50 ms", "p99 ms", "max ms"], [[i.calls, i.ms.p50, i.ms.p99, i.ms.max]]])
  }
  if (r.goals)
    out.push([
      "Goals (issues 13 and 42)",
      ["goal", "judged on", "", "figures"],
      r.goals.map((g) => [g.goal, g.statistic ?? "", verdict(g.met), g.detail]),
    ])
  return out
}

function printText(r) {
  console.log(`\nmachine: ${machineLine(r)}`)
  for (const [title, head, rows] of tables(r)) {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)))
    const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ")
    console.log(`\n${title}\n${line(head)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`)
    for (const row of rows) console.log(line(row))
  }
  if (r.workers_skipped) console.log(`\nseveral workers: skipped (${r.workers_skipped})`)
  for (const [name, message] of Object.entries(r.errors ?? {})) console.log(`\nsection ${name} FAILED: ${message}`)
  console.log(`\nmeasured in ${r.total_s} s; full figures: ${path.relative(process.cwd(), RESULTS)}`)
}

const mdTable = (head, rows) =>
  [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n")

function charts(r) {
  fs.mkdirSync(CHARTS, { recursive: true })
  const written = []
  const ack = [
    ...(r.webhook_ingest ?? []).map((x) => ({
      group: `${x.connections} connections`,
      label: x.route,
      value: x.p99,
      min: x.p99_min,
      max: x.p99_max,
      tick: x.p50,
      note: `p50 ${x.p50} · p99 ${x.p99} ms`,
    })),
    ...(r.burst ?? []).flatMap((b) => [
      {
        group: "bursts",
        label: `plugin: ${b.concurrent} new notifications at once`,
        value: b.p99,
        min: b.p99_min,
        max: b.p99_max,
        tick: b.p50,
        note: `p50 ${b.p50} · p99 ${b.p99} ms`,
      },
      ...(b.core_p99 === undefined
        ? []
        : [
            {
              group: "bursts",
              label: `core route: ${b.concurrent} at once`,
              value: b.core_p99,
              min: b.core_p99_min,
              max: b.core_p99_max,
              tick: b.core_p50,
              note: `p50 ${b.core_p50} · p99 ${b.core_p99} ms`,
            },
          ]),
    ]),
  ]
  if (ack.length) {
    fs.writeFileSync(
      path.join(CHARTS, "ack-latency.svg"),
      barChart({
        title: "Webhook ack latency: p99 bar (min–max of runs), p50 tick",
        unit: " ms",
        log: true,
        rows: ack,
        refs: [{ value: 300, label: "300 ms" }],
      })
    )
    written.push("ack-latency.svg")
  }
  const poller = (r.poller ?? []).map((x) => ({
    group: x.workers > 1 || x.where !== "in-process pass" ? "Medusa processes on Redis" : "one process",
    label: `${x.transfers} transfers, c${x.concurrency}, ${x.workers} worker${x.workers > 1 ? "s" : ""}`,
    value: x.ratio_to_limit,
    min: x.pass_ms_min / x.limit_ms,
    max: x.pass_ms_max / x.limit_ms,
    note: `${(x.pass_ms / 1000).toFixed(1)} s / limit ${(x.limit_ms / 1000).toFixed(1)} s`,
  }))
  if (poller.length) {
    fs.writeFileSync(
      path.join(CHARTS, "poller-vs-limit.svg"),
      barChart({
        title: "Poller pass time ÷ its limit (N × 20 ms / concurrency)",
        unit: "×",
        rows: poller,
        refs: [
          { value: 1, label: "limit" },
          { value: 1.3, label: "1.3×" },
        ],
      })
    )
    written.push("poller-vs-limit.svg")
  }
  return written
}

/** Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in a file that has the markers. */
function fill(file, name, text) {
  if (!fs.existsSync(file)) return false
  const s = fs.readFileSync(file, "utf8")
  // The markers may be empty (nothing between them yet) or hold an earlier run's text.
  const re = new RegExp(`(<!-- bench:${name} -->\\n)(?:[\\s\\S]*?\\n)?(<!-- /bench:${name} -->)`)
  if (!re.test(s)) return false
  fs.writeFileSync(
    file,
    s.replace(re, (_, a, b) => `${a}${text}\n${b}`)
  )
  return true
}

function writeDocs(r, chartFiles) {
  const stamp = `Figures of one \`npm run bench\` on ${machineLine(r)}; each the median of ${r.config.runs} runs (min–max in bench/RESULTS.md).`
  const t = tables(r)
  const body = t.map(([title, head, rows]) => `**${title}**\n\n${mdTable(head, rows)}`).join("\n\n")
  const pictures = chartFiles.map((f) => `![${f}](charts/${f})`).join("\n\n")
  const plans = Object.entries(r.explain ?? {})
    .map(([k, v]) => `**${k}** (${r.scale?.find((s) => s.rows > 0)?.rows ?? "?"} rows each)\n\n\`\`\`\n${v}\n\`\`\``)
    .join("\n\n")
  fill(
    path.join(ROOT, "bench/RESULTS.md"),
    "results",
    [stamp, pictures, body, plans && `### EXPLAIN plans on the grown tables\n\n${plans}`].filter(Boolean).join("\n\n")
  )
  const goals = r.goals
    ? `\n\n${mdTable(
        ["goal", "judged on", "", "figures"],
        r.goals.map((g) => [g.goal, g.statistic ?? "", verdict(g.met), g.detail])
      )}`
    : ""
  const summary = t.filter(([title]) => !title.startsWith("Goals") && !title.startsWith("initiate"))
  const table = summary.map(([title, head, rows]) => `**${title}**\n\n${mdTable(head, rows)}`).join("\n\n")
  fill(path.join(ROOT, "docs/performance.md"), "table", `${stamp}\n\n${table}${goals}`)
  // The READMEs show the goals with their figures; the tables are in docs/performance.md.
  for (const file of ["README.md", "README.tr.md"]) fill(path.join(ROOT, file), "summary", `${stamp}${goals}`)
}

function main() {
  if (!fs.existsSync(RESULTS)) {
    console.error(`no ${path.relative(process.cwd(), RESULTS)}: run npm run bench first`)
    process.exit(1)
  }
  const r = JSON.parse(fs.readFileSync(RESULTS, "utf8"))
  printText(r)
  writeDocs(r, charts(r))
}

if (require.main === module) main()
module.exports = { main }
