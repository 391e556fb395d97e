import en from "./json/en.json"
import tr from "./json/tr.json"

/**
 * Medusa Admin translations of the plugin (discovered by the admin bundler at
 * src/admin/i18n/index and merged into the dashboard's i18next resources).
 * Every key is under `odeme.` so it cannot collide with the dashboard's own.
 */
export default {
  en: { translation: en },
  tr: { translation: tr },
}
