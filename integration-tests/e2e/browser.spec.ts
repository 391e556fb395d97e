/**
 * The browser journeys, one file so that they run one after another on the
 * layer's one demo stack (support/global-stack.ts) while the other layers'
 * files use the other core: a Chromium scenario and the Admin's compile are
 * the slowest things here, and two at once would only make both wait.
 *
 * Each journey keeps its own describe, browser and contexts (journeys/*.ts).
 */
jest.setTimeout(240_000)

import "./journeys/checkout"
import "./journeys/return-page"
import "./journeys/turkish"
import "./journeys/admin-i18n"
import "./journeys/balance-link"
