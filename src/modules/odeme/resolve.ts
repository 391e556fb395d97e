import { container as rootContainer } from "@medusajs/framework"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { ODEME_MODULE } from "."
import type OdemeModuleService from "./service"

/**
 * The plugin's module. Routes, jobs and subscribers pass their scope; the
 * payment providers live in the payment module's own container and reach it
 * through Medusa's root container, where every loaded module is registered.
 */
export function odemeModule(scope: MedusaContainer = rootContainer): OdemeModuleService {
  try {
    return scope.resolve<OdemeModuleService>(ODEME_MODULE)
  } catch {
    throw new MedusaError(
      MedusaError.Types.UNEXPECTED_STATE,
      'medusa-payment-odeme is not registered as a plugin: add { resolve: "medusa-payment-odeme", options } to plugins in medusa-config (the payment provider needs its tables).'
    )
  }
}

export { rootContainer }
