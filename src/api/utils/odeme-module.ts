import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ODEME_MODULE } from "../../modules/odeme"
import type OdemeModuleService from "../../modules/odeme/service"

export function odemeModule(scope: MedusaContainer): OdemeModuleService {
  try {
    return scope.resolve<OdemeModuleService>(ODEME_MODULE)
  } catch {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      'medusa-payment-odeme is not registered as a plugin: add { resolve: "medusa-payment-odeme", options } to plugins in medusa-config.'
    )
  }
}
