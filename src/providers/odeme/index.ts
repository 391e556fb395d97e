import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { OdemeTransferProvider } from "./services/odeme-transfer"

export default ModuleProvider(Modules.PAYMENT, {
  services: [OdemeTransferProvider],
})

export { OdemeTransferProvider }
export * from "./types"
