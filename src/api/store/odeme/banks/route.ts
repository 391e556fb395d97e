import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { toMedusaError } from "../../../../lib/medusa-errors"
import { odemeModule } from "../../../../modules/odeme/resolve"

/** GET /store/odeme/banks: the merchant's bank accounts for a transfer, grouped (cached). */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const groups = await odemeModule(req.scope)
    .banks.groups()
    .catch((e) => {
      throw toMedusaError(e, "list the bank accounts", undefined, req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER))
    })
  res.json({ bank_groups: groups })
}
