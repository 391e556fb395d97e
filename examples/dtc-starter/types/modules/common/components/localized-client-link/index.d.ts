// apps/storefront/src/modules/common/components/localized-client-link/index.tsx ("use client")
import React from "react"

declare const LocalizedClientLink: ({
  children,
  href,
  ...props
}: {
  children?: React.ReactNode
  href: string
  className?: string
  onClick?: () => void
  passHref?: true
  [x: string]: unknown
}) => React.JSX.Element

export default LocalizedClientLink
