// apps/storefront/src/modules/checkout/components/error-message/index.tsx
import React from "react"

declare const ErrorMessage: ({ error, "data-testid": dataTestid }: { error?: string | null; "data-testid"?: string }) => React.JSX.Element | null

export default ErrorMessage
