import { Copy, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A label/value line in Medusa's detail-section style, with an optional copy button. */
export function DetailRow({ label, testId, copy, children }: { label: string; testId: string; copy?: string; children: ReactNode }) {
  return (
    <div className="text-ui-fg-subtle grid grid-cols-2 items-center gap-x-2 px-6 py-2">
      <Text size="small" weight="plus" leading="compact">
        {label}
      </Text>
      <div className="flex min-w-0 items-center gap-x-1">
        <Text size="small" leading="compact" className="min-w-0 break-words" data-testid={testId}>
          {children}
        </Text>
        {copy && <Copy content={copy} className="text-ui-fg-muted" />}
      </div>
    </div>
  )
}
