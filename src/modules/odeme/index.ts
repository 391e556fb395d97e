import { Module } from "@medusajs/framework/utils"
import serviceClientLoader from "./loaders/service-client"
import OdemeModuleService from "./service"

export const ODEME_MODULE = "odeme"

export default Module(ODEME_MODULE, {
  service: OdemeModuleService,
  loaders: [serviceClientLoader],
})
