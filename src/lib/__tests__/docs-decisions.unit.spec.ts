import { readFileSync } from "node:fs"
import { join } from "node:path"

// Issue 42: a reader scans docs/decisions.md's table for what the plugin does; the reasoning and
// the cases go under "## Why", linked from the row. This keeps each decision cell short enough to
// read there, and every link of the page pointing at a heading that exists.
const DECISION_LIMIT = 400
const HEADER = /^\|\s*point in the spec\s*\|\s*decision\s*\|\s*$/

type Row = { line: number; cells: string[] }

/** The cells of a Markdown table row, split on the pipes that are not escaped (`\|`). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
}

/** The rows of the decisions table: every line after its header and separator, up to the first line that is no row. */
function decisionRows(markdown: string): Row[] {
  const lines = markdown.split("\n")
  const head = lines.findIndex((l) => HEADER.test(l))
  if (head < 0) throw new Error("docs/decisions.md has no `| point in the spec | decision |` table")
  const rows: Row[] = []
  for (let i = head + 2; i < lines.length && lines[i].startsWith("|"); i++) rows.push({ line: i + 1, cells: cells(lines[i]) })
  return rows
}

/** Rows whose decision cell is longer than the limit, counted in characters (code points), as `line: point (length)`. */
function tooLong(markdown: string, limit = DECISION_LIMIT): string[] {
  return decisionRows(markdown)
    .filter((r) => [...(r.cells[1] ?? "")].length > limit)
    .map((r) => `${r.line}: ${r.cells[0]} (${[...r.cells[1]].length})`)
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

/** Links to a section of the same page (`](#…)`) that no heading of the page answers. */
function brokenAnchors(markdown: string): string[] {
  const anchors = new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])))
  return [...markdown.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]).filter((a) => !anchors.has(a))
}

describe("the checks on docs/decisions.md", () => {
  const table = (...rows: string[]) => ["# Decisions", "", "| point in the spec | decision |", "|---|---|", ...rows, "", "## Why", ""].join("\n")

  it("find a decision one character over the limit, and only that one", () => {
    const doc = table(`| §1 | ${"a".repeat(400)} |`, `| §2 | ${"b".repeat(401)} |`)
    expect(tooLong(doc)).toEqual(["6: §2 (401)"])
  })

  it("count characters, not bytes, and keep an escaped pipe inside its cell", () => {
    expect(tooLong(table(`| §1 | ${"§".repeat(400)} |`))).toEqual([])
    expect(decisionRows(table("| a \\| b | c |"))[0].cells).toEqual(["a \\| b", "c"])
  })

  it("find a link to a heading that does not exist", () => {
    expect(brokenAnchors(table("| §1 | x [Why](#why) |", "| §2 | y [Why](#gone) |"))).toEqual(["gone"])
    expect(anchorOf("The key's mode")).toBe("the-keys-mode")
    expect(anchorOf("The type of is_valid")).toBe("the-type-of-is_valid")
  })
})

describe("docs/decisions.md", () => {
  const doc = readFileSync(join(__dirname, "../../../docs/decisions.md"), "utf8")
  const rows = decisionRows(doc)

  it("keeps every row as `| point | decision |`", () => {
    expect(rows.length).toBeGreaterThan(0)
    const malformed = rows.filter((r) => r.cells.length !== 2 || r.cells.some((c) => c === "")).map((r) => `line ${r.line}`)
    expect(malformed).toEqual([])
  })

  it(`gives each decision in at most ${DECISION_LIMIT} characters (the reasoning goes under "## Why")`, () => {
    expect(tooLong(doc)).toEqual([])
  })

  it("links only to headings of the page", () => {
    expect(brokenAnchors(doc)).toEqual([])
  })
})
