import { Module } from "@medusajs/framework/utils"
import OdemeModuleService from "./service"

export const ODEME_MODULE = "odeme"

export default Module(ODEME_MODULE, {
  service: OdemeModuleService,
})
