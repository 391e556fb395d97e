import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { OdemeCheckoutProvider } from "./services/odeme-checkout"
import { OdemeTransferProvider } from "./services/odeme-transfer"

export default ModuleProvider(Modules.PAYMENT, {
  services: [OdemeTransferProvider, OdemeCheckoutProvider],
})

export { OdemeCheckoutProvider, OdemeTransferProvider }
export * from "./types"
