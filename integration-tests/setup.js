// Medusa's data-model decorators register entities globally; clear them between test files.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()
