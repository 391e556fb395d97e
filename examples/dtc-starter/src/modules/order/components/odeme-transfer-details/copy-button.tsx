"use client"

import { Button } from "@modules/common/components/ui"
import { useState } from "react"

type Props = { value: string; label: string; copiedLabel: string; "data-testid"?: string }

/** Copies the IBAN (without its display spaces: banking apps take it either way) or the order number. */
const OdemeCopyButton = ({ value, label, copiedLabel, "data-testid": testId }: Props) => {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      setTimeout(() => setCopied(false), 2_000)
    } catch {
      // No clipboard (an http page, a refused permission): the value stays on the page to select.
    }
  }
  return (
    <Button variant="secondary" size="small" type="button" onClick={copy} data-testid={testId} aria-live="polite">
      {copied ? copiedLabel : label}
    </Button>
  )
}

export default OdemeCopyButton
