// apps/storefront/src/modules/common/components/divider/index.tsx
import React from "react"

declare const Divider: ({ className }: { className?: string }) => React.JSX.Element

export default Divider
